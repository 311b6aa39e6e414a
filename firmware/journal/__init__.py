# The flash journal's writer (docs/journal.md): Journal writes the sittings, always loaded,
# on engine_core/journal/ (the format, its reading, JournalReader: loaded when needed).
from engine_core.journal.blocks import JournalError, JournalFull  # noqa: F401
from engine_core.journal.blocks import Walk  # noqa: F401
from firmware.journal.writer import Journal  # noqa: F401
