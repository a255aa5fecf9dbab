"""``python -m wom_tui``: the command line (:mod:`wom_tui.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
