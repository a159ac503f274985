"""``python -m exact`` and the ``exact`` command."""

import sys

from exact import stop


def run() -> None:
    stop.install(owner=True)  # before the imports below: a Ctrl-C during start-up is an interrupt
    try:
        from exact.cli import main  # lazy: after stop.install (a Ctrl-C during the imports is an interrupt)

        main()
    except KeyboardInterrupt:
        print("exact: interrupted", file=sys.stderr)
        stop.exit_now()


if __name__ == "__main__":
    run()
