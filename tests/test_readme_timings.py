"""README states no timing of its own: each time is stated once, with its cores, in docs/results.md."""

import re


def test_readme_states_no_time_in_seconds(root):
    text = (root / "README.md").read_text()
    times = re.findall(r"\b\d+(?:\.\d+)?\s*s\b", text)
    assert not times, f"README states times {times}: point to docs/results.md instead"
