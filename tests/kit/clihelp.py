"""Running the `tally42` command in-process for tests."""
from host_tools import cli


def run(capsys, *argv):
    """(exit code, stdout, stderr) of `tally42 ARGV...`."""
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
