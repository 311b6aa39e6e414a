# The sitting log: JSON Lines (docs/event-log.md), read, scored and written back.
