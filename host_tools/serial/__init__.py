# The USB serial line to a scorer: the transport, the sync client, the sync of sittings, the base station.
