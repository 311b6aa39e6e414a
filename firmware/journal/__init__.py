# The flash journal (docs/journal.md): Journal writes and walks the sittings, always
# loaded; JournalReader (firmware.journal.reader) reads them back, loaded when needed.
from firmware.journal.writer import Journal, JournalError, JournalFull, Walk  # noqa: F401
