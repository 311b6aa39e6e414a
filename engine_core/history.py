# The undo history every game family's sitting keeps: the coded events since a base
# state, in one bytearray. apply() checks, codes and does an event; undo() replays the
# history minus its last event from the base, so undo is exact by construction. Nothing
# here allocates once the sitting is made.
#
# A family's sitting subclass provides:
#   self.st, self._base   arrays of the same length: the state, and the state where the
#                         history starts; every family's state begins with the four
#                         slots below (the readers here use them)
#   self.codec            its event codec (encode_into, length_at, decode_at), which
#                         codes an event in at most MAX_EVENT_BYTES (codes.py) bytes
#   _check(ev), _do(ev)   the family's rules: a refusal code (0: fine), and the change
from engine_core.compat import const
from engine_core.codes import EV_UNDO, MAX_EVENT_BYTES
from engine_core.errors import E_BAD_EVENT, E_FULL, E_UNDO, OK

# The types of what a family's sitting provides, for pyright only: pyproject.toml's
# defineConstant makes _TYPING true there; MicroPython folds the const and compiles
# nothing of the block, and CPython never runs it.
_TYPING = const(0)
if _TYPING:
    from array import array
    from typing import Callable, Protocol

    class Codec(Protocol):
        def encode_into(self, ev: int, buf: bytearray, pos: int) -> int: ...

        def length_at(self, buf: bytearray, pos: int) -> int: ...

        def decode_at(self, buf: bytearray, pos: int) -> int: ...


# The first four slots of every family's state (their readers are here).
DEALER = const(0)       # the deal in progress's dealer
HANDS = const(1)        # deals finished (since the history's last compaction)
ENDED = const(2)        # 1: the sitting is over
WINNER = const(3)       # the winning side, -1 none


class History:
    """Undoable event history and the readers every family shares (a base class of
    every family's sitting)."""

    # What the family's sitting provides (bare annotations: types, no value, no heap)
    st: "array[int]"
    _base: "array[int]"
    codec: "Codec"
    hist: bytearray
    hlen: int
    dropped: int
    _check: "Callable[[int], int]"      # ev -> a refusal code, 0 fine
    _do: "Callable[[int], None]"

    def dealer(self):
        return self.st[DEALER]

    def over(self):
        return self.st[ENDED] == 1

    def winner(self):
        return self.st[WINNER]

    def hands(self):
        return self.st[HANDS] + self.dropped

    def _init_history(self, size):
        self.hist = bytearray(size)
        self.hlen = 0
        self.dropped = 0        # hands compacted out of the history

    def _clear_history(self):
        self.hlen = 0
        self.dropped = 0
        self._copy(self.st, self._base)

    def apply(self, ev):
        """Apply one event; 0 when taken, else a refusal code and nothing changed."""
        if ev >> 24 == EV_UNDO:
            return self.undo()
        err = self._check(ev)
        if err:
            return err
        codec = self.codec
        pos = self.hlen
        if pos + MAX_EVENT_BYTES > len(self.hist):
            err = self._compact()
            if err:
                return err
            pos = self.hlen
        end = codec.encode_into(ev, self.hist, pos)
        if end < 0:
            return E_BAD_EVENT
        self._do(ev)
        self.hlen = end
        return OK

    def check(self, ev):
        """The refusal apply(ev) would give, without applying it."""
        if ev >> 24 == EV_UNDO:
            return OK if self.hlen else E_UNDO
        return self._check(ev)

    def _last_at(self):
        # Where the history's last event starts, -1 when it is empty.
        hist = self.hist
        end = self.hlen
        codec = self.codec
        pos = 0
        last = -1
        while pos < end:
            last = pos
            pos += codec.length_at(hist, pos)
        return last

    def last_event(self):
        """The last event of the history (the one undo() would take back), -1 none."""
        last = self._last_at()
        return -1 if last < 0 else self.codec.decode_at(self.hist, last)

    def undo(self):
        """Take back the last event: the state becomes what replaying all but it gives."""
        last = self._last_at()
        if last < 0:
            return E_UNDO
        self._replay(last)
        return OK

    def _replay(self, end):
        self._copy(self._base, self.st)
        hist = self.hist
        codec = self.codec
        pos = 0
        while pos < end:
            self._do(codec.decode_at(hist, pos))
            pos += codec.length_at(hist, pos)
        self.hlen = end

    def _compact(self):
        # The history is full: start it at the latest finished deal before its end, so
        # the deals before that can no longer be undone (a sitting this long is rare).
        hist = self.hist
        codec = self.codec
        slot = HANDS
        st = self.st
        end = self.hlen
        self._copy(self._base, st)
        pos = 0
        cut = 0
        hands = st[slot]
        cut_hands = hands
        while pos < end:
            self._do(codec.decode_at(hist, pos))
            pos += codec.length_at(hist, pos)
            if st[slot] != hands and not self.over():
                hands = st[slot]
                cut = pos
                cut_hands = hands
        if not cut:
            return E_FULL
        # Replay up to the cut to take its state as the new base.
        self._copy(self._base, st)
        pos = 0
        while pos < cut:
            self._do(codec.decode_at(hist, pos))
            pos += codec.length_at(hist, pos)
        self.dropped += cut_hands - self._base[slot]
        st[slot] = 0
        self._copy(st, self._base)
        i = cut
        while i < end:
            hist[i - cut] = hist[i]
            i += 1
        self._replay(end - cut)
        return OK

    def _copy(self, src, dst):
        i = 0
        n = len(src)
        while i < n:
            dst[i] = src[i]
            i += 1
