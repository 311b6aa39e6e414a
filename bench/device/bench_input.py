# runs on: micropython
# Presses against a slow e-paper panel, on the sim board in fake time (tests/kit/chip/fakes.py):
# a panel whose partial refresh takes 600 ms and a full one 2.5 s, and a player who
# presses every 150 ms (each press held 70 ms) through a whole hand and the next deal.
#   ui.presses_lost.during_refresh    presses made less presses the app was handed
#   ui.presses_during_refresh         of those presses, how many came while the panel
#                                     was refreshing


from boardrig import fake_board, run_loop, script  # noqa: E402
from boardrig import PLAY  # noqa: E402

HANDS = 3


def main():
    names = PLAY[:1] + PLAY[1:8] * HANDS         # the start, then whole hands
    presses = script(names, 150)
    b = fake_board(presses, stop_ms=presses[-1][0] + 6000)
    busy = []
    show = b.display.show

    def spy(full=False):
        show(full)      # waits for a refresh still running, then starts this one
        busy.append((b.clock.t, b.display.until))
    b.display.show = spy
    lp = run_loop(b)
    during = 0
    for down, _ in presses:
        for start, end in busy:
            if start <= down < end:
                during += 1
                break
    print("ui.presses_lost.during_refresh: %d presses" % (len(presses) - lp.keys))
    print("ui.presses_during_refresh: %d of %d presses" % (during, len(presses)))


main()
