# A time on the scorer's clock as a sitting's header and END records carry it: u32
# seconds and an i8 UTC offset in quarter hours (docs/journal.md). A clock the PC has set
# counts seconds since 2024-01-01T00:00Z, its offset the PC's (-95..95 quarter hours).
# A clock never set since the board was powered on (an ESP32's RTC starts at 2000-01-01
# at power-on, and runs through deep sleep and every other reset) counts seconds since
# that power-on, and its offset byte then holds the power-on's tag (0..63, drawn at
# random at power-on) as a value no UTC offset takes: -128..-97 for tags 0..31, 96..127
# for 32..63. The PC places such a time at the next sync, from what the hello says of
# the clock then (host_tools/serial/clock.py), when the tag is this power-on's. Small
# ints only, no allocation: the event path stamps.
from engine_core.compat import const

TAGS = const(64)            # power-on tags
_LOW = const(-128)          # tags 0..31: offset bytes -128..-97
_HIGH = const(64)           # tags 32..63: offset bytes 96..127


def unset_offset(tag):
    """The offset (minutes) a stamp of a never-set clock carries for a power-on's tag."""
    t = tag % TAGS
    return ((_LOW if t < 32 else _HIGH) + t) * 15


def power_on_tag(offset_minutes):
    """The power-on tag of a stamp's offset (minutes), or -1 for a UTC offset (a clock
    the PC set)."""
    q = offset_minutes // 15
    if _LOW <= q < _LOW + 32:
        return q - _LOW
    if _HIGH + 32 <= q < _HIGH + TAGS:
        return q - _HIGH
    return -1
