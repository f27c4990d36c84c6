"""``cardtable`` (and ``python -m table``): the command line, loaded so that Ctrl-C while it loads
is an interruption like any other, not a traceback."""

from __future__ import annotations

import sys


def main() -> int:
    try:
        from table.cli import main as command_line
    except KeyboardInterrupt:
        print("cardtable: interrupted", file=sys.stderr)
        return 130
    return command_line()


if __name__ == "__main__":
    sys.exit(main())
