import sys

from exact import stop

stop.install()  # before the imports below: a Ctrl-C during start-up is an interrupt, not a traceback
try:
    from exact.cli import main
except KeyboardInterrupt:
    print("exact: interrupted", file=sys.stderr)
    sys.exit(stop.exit_code())

main()
