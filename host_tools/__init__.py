# Tally 42 PC tools: the `tally42` command.
