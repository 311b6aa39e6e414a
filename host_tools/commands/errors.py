"""CommandError, on its own: `tally42` (host_tools/cli.py) catches it before it knows which
command runs, and `tally42 --version` loads nothing else."""


class CommandError(Exception):
    """A failure the user can act on: printed as `tally42: message`, exit 2."""
