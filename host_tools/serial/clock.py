"""A sitting's times as the PC stores them from a scorer: the scorer's clock read against
the PC's at the sync's first hello.

A scorer stamps a sitting's start (its header) and each end (its END records) with its
clock (engine_core.stamp). Three cases, by what the stamp and the hello say:

- The clock was set by a PC, and at the hello it is within DRIFT of this PC's: the stamp
  is kept as the scorer wrote it ("scorer").
- The clock was set, but has drifted further since (a board without a clock chip runs
  on its RC oscillator in deep sleep, several % off): the stamp moved by the hello's
  offset, the PC's clock minus the scorer's ("pc"). A set clock is only ever set again
  by a sync, which takes every sitting stamped before it, so the offset holds for them.
- The clock was never set since the board's power-on (an ESP32's RTC starts at
  2000-01-01): the stamp counts seconds since that power-on. When its power-on tag is the
  one the hello gives, it is placed on the PC's clock, the hello's count being the PC's
  time then ("pc"). One of an earlier power-on (the scorer was switched off or lost
  power since) stands on a count that started again: the PC does not know when it was,
  and stores the sitting without that time ("lost"). It never shows a count as a date.

A drifting RC clock still drifts between the stamp and the hello: the PC's time is as
good as the scorer's count over that span.
"""
import time

from engine_core.stamp import power_on_tag
from host_tools.log.device import DEVICE_EPOCH, device_time

DRIFT = 120     # seconds a set clock may be off the PC's before its stamps are moved


class ScorerClock:
    """`ScorerClock(info)`: a scorer's clock as a hello said it (a client.DeviceInfo:
    .clock, .count, .heard_at), against the PC's clock when that hello came."""

    def __init__(self, info):
        self.pc = int(getattr(info, "heard_at", None) or time.time())
        self.scorer = getattr(info, "clock", 0) or 0    # Unix seconds, 0 when not set
        self.count = getattr(info, "count", None)       # (seconds since power-on, tag)
        self.shift = 0
        if self.scorer and abs(self.pc - self.scorer) > DRIFT:
            self.shift = self.pc - self.scorer

    def place(self, seconds, offset_minutes):
        """(ISO 8601 time or None, how) of a stamp: how is "scorer" (as stamped), "pc"
        (placed on the PC's clock) or "lost" (a count of an earlier power-on); (None,
        None) for a stamp of no time."""
        if not seconds:
            return None, None
        tag = power_on_tag(offset_minutes)
        if tag < 0:
            if not self.shift:
                return device_time(seconds, offset_minutes), "scorer"
            return _at(DEVICE_EPOCH + seconds + self.shift, offset_minutes), "pc"
        if self.count is not None and tag == self.count[1] and seconds <= self.count[0]:
            unix = self.pc - (self.count[0] - seconds)
            return _at(unix, local_offset(unix)), "pc"
        return None, "lost"


def describe(info):
    """The scorer's clock in a few words (tally42 devices), from its hello."""
    count = getattr(info, "count", None)
    if count is not None:
        return "clock not set (on for %s: times from the PC's clock at the sync)" % (
            _span(count[0]))
    if not info.clock:
        return "clock not set"
    off = info.clock - int(info.heard_at)
    if abs(off) <= DRIFT:
        return "clock right"
    return "clock %s %s (times moved by the PC's clock at the sync)" % (
        _span(abs(off)), "fast" if off > 0 else "slow")


def _span(seconds):
    if seconds < 5400:
        return "%d min" % (seconds // 60)
    if seconds < 2 * 86400:
        return "%d h" % (seconds // 3600)
    return "%d days" % (seconds // 86400)


def _at(unix, offset_minutes):
    return device_time(unix - DEVICE_EPOCH, offset_minutes) if unix > DEVICE_EPOCH else None


def local_offset(when):
    """This PC's offset from UTC in minutes at Unix time `when`."""
    local = time.localtime(when)
    return int(getattr(local, "tm_gmtoff", 0) or 0) // 60


def lost_times(seconds, offset_minutes):
    """True when a stamp counts from a power-on (not a date): without a hello to place
    it by, it is no time at all."""
    return bool(seconds) and power_on_tag(offset_minutes) >= 0
