# Moving a cursor through the engine's legal bids or contracts (positions of its legal
# walk), wrapping at the ends. Allocates nothing.


def first(s):
    return s.next_legal(-1)


def step(s, j, n):
    """The position n legal actions after j (before it when n < 0), wrapping."""
    while n > 0:
        j = s.next_legal(j)
        if j < 0:
            j = s.next_legal(-1)
        n -= 1
    while n < 0:
        j = before(s, j)
        n += 1
    return j


def before(s, j):
    # The legal position before j, or the last one when j is the first.
    k = s.next_legal(-1)
    prev = -1
    while k >= 0 and k != j:
        prev = k
        k = s.next_legal(k)
    if prev >= 0:
        return prev
    last = k
    while k >= 0:
        last = k
        k = s.next_legal(k)
    return last


def find(s, code):
    """The position of a legal bid or contract code, or -1."""
    j = s.next_legal(-1)
    while j >= 0:
        if s.legal_at(j) == code:
            return j
        j = s.next_legal(j)
    return -1
