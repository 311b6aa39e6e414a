# The scorer's clock: set by the PC at a sync, kept by the board's RTC where it has one.
# A sitting's header and its END record carry its time.
import time

from micropython import const

EPOCH = const(1704067200)     # 2024-01-01T00:00:00Z in Unix seconds


class Clock:
    def __init__(self, rtc=None):
        self.rtc = rtc              # the board's clock (boards.device.RtcClock), or None
        self.utc_offset = 0         # minutes east of UTC, as the PC said
        self._since = 0             # seconds since EPOCH at _at, 0: not set
        self._at = 0

    def now(self):
        """Seconds since 2024-01-01T00:00Z (0 until a sync set the clock). A board's RTC
        keeps it through deep sleep and restarts; ticks_ms wraps after about six days, so
        without one the count stays right as long as the scorer is synced or restarted
        within that. Allocates nothing once set: a game's end stamps its END record from
        the event path."""
        if not self._since and self.rtc is not None:
            unix, offset = self.rtc.now()
            if unix > EPOCH:
                self._since = unix - EPOCH
                self._at = time.ticks_ms()
                self.utc_offset = offset
        if not self._since:
            return 0
        return self._since + time.ticks_diff(time.ticks_ms(), self._at) // 1000

    def unix(self):
        """The clock in Unix seconds (0 until a sync has set it), for the hello."""
        t = self.now()
        return t + EPOCH if t else 0

    def set(self, unix_seconds, utc_offset_minutes):
        """The PC's clock: kept as seconds since 2024, a small int on the ESP32 until 2058.
        None, or why it is refused."""
        since = unix_seconds - EPOCH
        if not 0 < since < 0x3FFFFFFF:
            return "the clock must be set to a time from 2024 to 2057"
        self._since = since
        self._at = time.ticks_ms()
        self.utc_offset = utc_offset_minutes
        if self.rtc is not None:
            self.rtc.set(unix_seconds, utc_offset_minutes)
        return None
