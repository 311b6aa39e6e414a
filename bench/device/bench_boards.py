# runs on: micropython
# The device boards on fake hardware (boards/sim/chip/, boards/sim/chip/wifi.py): what each board
# file says of its battery, and the buttons against the SAR ADC's glitch.
#   battery.divider.<board>       the ratio its file uses: the cell's volts over GPIO35's
#                                 (M5Stack CoreInk 25.1/5.1, LilyGO T5 and the DIY build
#                                 100k/100k)
#   battery.read_error_pct.max    the worst error of firmware/battery.py's reading,
#                                 over each board and cells of 3.30-4.20 V (10 mV steps),
#                                 through its divider and the ADC's 12-bit steps as the
#                                 esp32 port reads them (the fake ADC: ports/esp32/adc.c)
#   ui.phantom_presses.adc_glitch presses that came of GPIO39's glitch (ESP32 errata 3.11)
#                                 in battery reads and WiFi starts, on the T5 (its OK) and
#                                 the CoreInk (its dial down), polled as the main loop does
import os


from costclock import FakeCell  # noqa: E402
from fakes import FakeClock, install_fake_hardware  # noqa: E402
from firmware.buttons import NONE  # noqa: E402
from firmware import battery  # noqa: E402

QUICK = os.getenv("TALLY42_BENCH_QUICK") == "1"
BOARDS = ("m5stack_coreink", "lilygo_t5_213", "esp32_epd29")


def _open(name, volts=3.9):
    m, e, undo = install_fake_hardware()
    board = __import__("boards." + name, None, None, ["open"]).open()
    for gpio in (37, 38, 39):       # pulled up on the boards: released
        if gpio in m.pins:
            m.pins[gpio].level = 1
    m.ADC.cell = FakeCell(volts)
    m.ADC.ratio = board.battery_ratio
    clock = FakeClock(1000)
    board.ticks_ms = clock.ticks_ms
    return board, m, clock, undo


def read_errors():
    worst = 0
    for name in BOARDS:
        board, m, clock, undo = _open(name)
        try:
            num, den = board.battery_ratio
            print("battery.divider.%s: %.2f ratio" % (name, num / den))
            m.ADC.cell.load_ma = 0      # the cell's open-circuit volts at the pin
            for mv in range(3300, 4201, 50 if QUICK else 10):
                m.ADC.cell.ocv = mv / 1000
                got = battery.millivolts(board)
                worst = max(worst, abs(got - mv) * 100 / mv)
        finally:
            undo()
    return worst


def adc_glitches():
    from boards.sim.chip import wifi as fakewifi
    import scratch
    phantoms = 0
    rounds = 5 if QUICK else 50
    for name in ("lilygo_t5_213", "m5stack_coreink"):
        board, m, clock, undo = _open(name)
        net, undo_net = fakewifi.install(scratch.path("air-bench"), clock)
        try:
            b = board.buttons
            battery.at_boot(board)      # as start.py does, before the first poll

            def run(ms):
                n = 0
                end = clock.t + ms
                while clock.t < end:
                    n += b.poll(clock.t) != NONE
                    clock.t += 10
                return n
            wlan, espnow = board.radio()
            phantoms += run(100)
            for _ in range(rounds):
                battery.millivolts(board)
                phantoms += run(50)
                wlan.active(True)
                phantoms += run(50)
                wlan.active(False)
            phantoms += run(100)
        finally:
            undo_net()
            undo()
    return phantoms


def main():
    print("battery.read_error_pct.max: %.2f %%" % read_errors())
    print("ui.phantom_presses.adc_glitch: %d presses" % adc_glitches())


main()
