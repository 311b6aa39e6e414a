# `python -m host_tools` is the `tally42` command.
import sys

from host_tools.cli import main

sys.exit(main())
