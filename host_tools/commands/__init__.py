# The subcommands of `tally42`; host_tools/cli.py holds their table.
