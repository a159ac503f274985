"""Every field of a JSON input and every option value that is wrong gives one line naming the problem,
and a non-zero exit other than the 1 that means REJECTED: wrong field types in results and
certificates, a bad --cluster, --seed, --guesses-allowed, --objective or --after, a JSON tree with a
key given twice or a node without its map, a folder that cannot take the cache."""

import json
import socket
import threading
from pathlib import Path

import pytest

from exact.errors import ExactError
from exact.game.formats import read_tree
from exact.wordle.fewest.objective import parse_objective
from exact.wordle.study.memorable_curve import parse_m_values
from exact.words import wordle_answers

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "results" / "lingo" / "answers-first-20.json"


@pytest.mark.slow
@pytest.mark.parametrize("edit, fragment", [
    (lambda d: d.update(params=[1, 2, 3]), "field 'params' has the wrong type (list"),
    (lambda d: d.update(bound_details="abc"), "field 'bound_details' has the wrong type (str"),
    (lambda d: d.update(rule_version="x"), "field 'rule_version' has the wrong type (str"),
    (lambda d: d.update(interrupted="no"), "field 'interrupted' has the wrong type (str"),
    (lambda d: d.update(k=True), "field 'k' has the wrong type (bool"),
])
def test_lingo_result_fields_are_type_checked(tmp_path, cli, edit, fragment, assert_one_line_error):
    data = json.loads(RESULT.read_text())
    data["words"] = str(ROOT / data["words"])
    edit(data)
    (tmp_path / "r.json").write_text(json.dumps(data))
    assert_one_line_error(cli("lingo", "verify", tmp_path / "r.json"), fragment)


@pytest.fixture(scope="module")
def adaptive_certificate(tmp_path_factory):
    from exact.lingo.adaptive import solve_adaptive, write_adaptive
    from exact.words import read_words

    folder = tmp_path_factory.mktemp("adaptive")
    (folder / "pool.txt").write_text("baker\nbakes\nbaled\ncater\ncates\n")
    write_adaptive(solve_adaptive(read_words(folder / "pool.txt"), 2), folder / "a.json", folder / "trees")
    return folder / "a.json"


@pytest.mark.slow
@pytest.mark.parametrize("edit, fragment", [
    (lambda d: d.update(letters=[1]), "field 'letters' has the wrong type (list"),
    (lambda d: d.update(guesses_allowed="2"), "field 'guesses_allowed' has the wrong type (str"),
    (lambda d: d["letters"]["b"].update(wins="3"), "letter 'b': field 'wins' has the wrong type (str"),
    (lambda d: d["letters"]["c"].pop("status"), "letter 'c': field 'status' is missing"),
    (lambda d: d["letters"]["c"].update(status="PROVEN"), "status 'PROVEN' is not OPTIMAL"),
    (lambda d: d.pop("n"), "field 'n' is missing"),
])
def test_adaptive_certificate_fields_are_type_checked(tmp_path, cli, adaptive_certificate, edit, fragment,
                                                     assert_one_line_error):
    data = json.loads(adaptive_certificate.read_text())
    edit(data)
    (tmp_path / "a.json").write_text(json.dumps(data))
    for command in (("lingo", "verify", "--words", adaptive_certificate.parent / "pool.txt"),
                    ("lingo", "adaptive-table")):
        assert_one_line_error(cli(*command, tmp_path / "a.json"), fragment)


def test_group_and_column_files_are_type_checked(tmp_path, adaptive_certificate):
    from exact.lingo.groups import verify_groups
    from exact.lingo.result import Verification
    from exact.words import read_words

    pool = read_words(adaptive_certificate.parent / "pool.txt")
    with pytest.raises(ExactError, match="field 'groups' is missing"):
        verify_groups({"instance_sha256": "x", "n": 5, "k": 1, "groups_sha256": "x", "rest": 0, "inner_bound": 1,
                       "upper_bound": 1}, tmp_path / "g.json", pool, Verification("g.json"))
    from exact.fileio import check_fields

    with pytest.raises(ExactError, match="field 'instance' has the wrong type"):
        check_fields({"instance": "abc"}, {"instance": "dict"}, source="c.json")


@pytest.mark.slow
def test_numbers_of_thousands_of_digits_in_json_inputs(tmp_path, cli, assert_one_line_error):
    (tmp_path / "r.json").write_text('{"wins": ' + "9" * 5000 + "}")
    assert_one_line_error(cli("lingo", "adaptive-table", tmp_path / "r.json"), "too many digits")
    assert_one_line_error(cli("lingo", "play", "--set", tmp_path / "r.json"), "too many digits")


@pytest.fixture(scope="module")
def lists(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lists")
    (folder / "a.txt").write_text("".join(w + "\n" for w in wordle_answers().words[:30]))
    (folder / "p.txt").write_text("".join(w + "\n" for w in wordle_answers().words[::77]))
    return folder


@pytest.mark.parametrize("args, fragment", [
    (("lingo", "solve", "--words", "{p}", "-k", "1", "--seed", "-1"), "-1 is not in the range 0<=x<=2147483647"),
    (("lingo", "solve", "--words", "{p}", "-k", "1", "--seed", "9" * 20), "is not in the range"),
    (("lingo", "solve", "--adaptive", "--guesses-allowed", "6-2", "--words", "{p}"), "the range 6-2 runs backwards"),
    (("wordle", "solve", "--answers", "{a}", "--guesses", "{a}", "--objective", "win99"),
     "win99 is more than --max-guesses 6"),
    (("wordle", "solve", "--answers", "{a}", "--guesses", "{a}", "--after", "aback 22222"),
     "aback was the answer (all green); the game is over"),
    (("wordle", "solve", "--answers", "{a}", "--guesses", "{a}", "--objective", "guesses", "--after", "aback ggggg"),
     "aback was the answer"),
])
def test_option_values_are_one_line_errors(lists, cli, args, fragment):
    r = cli(*[a.format(a=lists / "a.txt", p=lists / "p.txt") for a in args])
    assert r.returncode == 2 and fragment in r.stderr and "Traceback" not in r.stderr, r.stderr[-600:]


@pytest.mark.slow
def test_cluster_that_is_not_an_address_or_not_dask(lists, cli, assert_one_line_error):
    pytest.importorskip("distributed")
    base = ("wordle", "rank", "--answers", lists / "a.txt", "--guesses", lists / "a.txt", "--depth", "3")
    assert_one_line_error(cli(*base, "--cluster", "not an address"), "not a scheduler address")
    for greeting in (b"", b"HTTP/1.0 400 Bad Request\r\n\r\n"):  # silent (HTTP) and talkative servers
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]

        def serve(greeting=greeting):
            conn, _ = server.accept()
            conn.sendall(greeting)
            threading.Event().wait(15)
            conn.close()

        threading.Thread(target=serve, daemon=True).start()
        line = assert_one_line_error(cli(*base, "--cluster", f"tcp://127.0.0.1:{port}"))
        assert ("sent nothing" if not greeting else "does not speak Dask's protocol") in line
        server.close()


@pytest.mark.parametrize("name, text, fragment", [
    ("d.js", '{"guess":"cabin","map":{"22222":"cabin","22200":"cable","22200":"caber"}}', "'22200' appears twice"),
    ("m.js", '{"guess":"cabin","map":{"22200":{"guess":"cable"}}}', "the node of 'cable' has no 'map'"),
    ("l.json", '["cabin", {"cabin": null, "cabin": null}]', "'cabin' appears twice"),
])
def test_json_trees_refuse_duplicate_keys_and_nodes_without_map(tmp_path, name, text, fragment):
    (tmp_path / name).write_text(text)
    with pytest.raises(ExactError, match=fragment):
        read_tree(tmp_path / name)


def test_a_cache_write_failure_names_its_cause(tmp_path, monkeypatch, capsys):
    """A full disk under the cache said "(None)": an OSError without strerror (numpy's short write)."""
    import exact.partitions as partitions
    from exact.words import words_from_lines

    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path))

    def short_write(path, write, mkdir=None):
        raise OSError("69450 requested and 65408 written")

    monkeypatch.setattr(partitions, "atomic_write", short_write)
    A = words_from_lines(["cabin", "cable", "caber"])
    partitions.save_cached(A, A, partitions.feedback_matrix(A, A, cache=False))
    err = capsys.readouterr().err
    assert "(69450 requested and 65408 written)" in err and "None" not in err


@pytest.mark.parametrize("parse, text", [
    (lambda t: parse_objective(t), "win\u00b3,guesses"),  # '³': str.isdigit says yes, int() says no
    (lambda t: parse_objective(t), "win\uff12,guesses"),  # full-width 2: int() would read it
    (lambda t: parse_m_values(t, 243), "1-\u00b3"),
    (lambda t: parse_m_values(t, 243), "\uff11"),
])
def test_numbers_in_text_are_ascii_digits_only(parse, text):
    with pytest.raises(ExactError):
        parse(text)
