# The battery, on the boards that can measure it (board.battery: the GPIO of its ADC,
# board.battery_ratio: its divider as (num, den), the cell's volts being the pin's x
# num/den, from the board's schematic; GPIO35 on each board). Loaded only
# there, and only when it is measured: at boot, and each time the board goes idle
# (firmware/power.py). With the screens, as it draws two: the last one, and the tag on
# the score.
#
#   LOW_MV      below it, the score screen warns: charge soon
#   FLOOR_MV    below it, no more full refreshes (the most current a refresh draws: a
#               sagging LiPo browns the board out, and every boot does one), and a last
#               screen, drawn with a partial refresh, says so before a deep sleep
#   RESUME_MV   a board resting on a low battery wakes every CHECK_MS (or at a press)
#               and plays again only once the cell is back above this: charged
#   NO_CELL_MV  below it no cell powers the board (the ESP32 and its flash stop well
#               above): on USB with no cell, or a DIY board built without the divider.
#               Nothing is said, nothing rests.
#
# A LiPo's open-circuit voltage is about 3.7 V at half charge and 3.4-3.5 V with 5-10 %
# left; the board's LDO (ME6211-class, 0.1 V dropout) and the SPI flash (2.7 V at least)
# brown out a cell sagging under a full refresh below SAFE_MV (docs/hardware.md). A cold
# or worn cell sags more: at boot its resistance is measured (the CPU at 80 MHz, then
# 240 MHz: 31 and 68 mA, the ESP32 datasheet's upper figures) and the voltage under a
# full refresh (FULL_MA) foreseen, so that a cell that would brown the board out is
# treated as one below its floor, not refreshed in a loop of brown-outs.
from micropython import const

from firmware.codes import BLACK, LINE, WHITE

LOW_MV = const(3550)
FLOOR_MV = const(3400)
RESUME_MV = const(3700)
CHECK_MS = const(1800000)   # half an hour
NO_CELL_MV = const(2500)
SAFE_MV = const(2900)       # the flash's 2.7 V, the LDO's 0.1 V, 0.1 V to spare
FULL_MA = const(120)        # the board at a full refresh's peak: CPU, panel pump, LDO
_SLOW_MA = const(31)
_FAST_MA = const(68)
LAST_WORDS = "battery low: charge me, the sitting is saved"


def millivolts(board):
    """The cell's voltage, by the ADC behind the board's divider. read_uv() is the
    port's calibrated reading (ports/esp32/adc.c: whole mV x 1000, from 12-bit steps);
    under 2**30 on 32 bits: a pin's 3.1 V at most x 251 is 7.8e8. The buttons on GPIO36/
    39 are hushed meanwhile (firmware/buttons.py: the SAR ADC's power glitches them)."""
    from machine import ADC, Pin
    num, den = board.battery_ratio
    hush = getattr(board, "hush", None)
    if hush is not None:
        hush(True, board.ticks_ms())
    try:
        uv = ADC(Pin(board.battery), atten=ADC.ATTN_11DB).read_uv()
    finally:
        if hush is not None:
            hush(False, board.ticks_ms())
    return uv // 1000 * num // den


def at_boot(board):
    """Before any refresh: rest again if the cell is below its floor, or still below
    RESUME_MV after a rest on a low cell (the last screen is still on the panel)."""
    mv, ohm_mv = sag(board)
    if mv < NO_CELL_MV:
        return
    if mv < FLOOR_MV or mv - ohm_mv * (FULL_MA - _SLOW_MA) // 1000 < SAFE_MV:
        rest(board)
    elif mv < RESUME_MV:
        import machine
        if machine.wake_reason() == machine.TIMER_WAKE:    # a rest's timer, no press
            board.deep_sleep(CHECK_MS)


def sag(board):
    """(mV at 80 MHz, the cell's resistance in milliohms) from readings at two loads."""
    cpu = board.cpu_freq
    cpu(80000000)
    rest = _mean(board)
    cpu(240000000)
    loaded = _mean(board)
    cpu(80000000)
    return rest, max(0, rest - loaded) * 1000 // (_FAST_MA - _SLOW_MA)


def _mean(board):
    total = 0
    for _ in range(8):
        total += millivolts(board)
    return total // 8


def check(board, app):
    """The board goes idle: warn on a low cell, rest on one below its floor. True when
    the warning has just come on (the screen is to be drawn again)."""
    mv = millivolts(board)
    if mv < NO_CELL_MV:
        return False
    if mv < FLOOR_MV:
        rest(board)
        return False
    low = mv < LOW_MV
    came = low and not app.battery_low
    app.battery_low = low
    return came


def rest(board):
    """The last screen, with a partial refresh, then a deep sleep until charged."""
    fb = board.display
    fb.low_power = True
    try:
        fb.fill(WHITE)
        cols = fb.width // 8
        y = (fb.height - 3 * LINE) // 2
        line = ""
        for word in LAST_WORDS.split():
            if line and len(line) + 1 + len(word) > cols:
                fb.text(line, 0, y, BLACK)
                y += LINE
                line = word
            else:
                line = line + " " + word if line else word
        fb.text(line, 0, y, BLACK)
        fb.show(False)
        fb.wait_until_ready()
    except Exception:   # the panel failed too: sleeping is what saves the cell
        pass
    board.deep_sleep(CHECK_MS)


def mark(fb):
    """The warning on the score screen: a small black tag at the top right."""
    w = fb.width
    fb.fill_rect(w - 36, 0, 36, 10, BLACK)
    fb.text("BAT!", w - 34, 1, WHITE)
