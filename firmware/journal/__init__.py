# The flash journal (docs/journal.md): Journal writes and walks the sittings, always
# loaded; JournalReader (engine_core.journal.reader) reads them back, loaded when needed.
from engine_core.journal.blocks import JournalError, JournalFull  # noqa: F401
from engine_core.journal.blocks import Walk  # noqa: F401
from firmware.journal.writer import Journal  # noqa: F401
