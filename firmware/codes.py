# Small-integer codes shared by the firmware's modules: the logical buttons, the screens,
# the colours and the type's sizes. For the tests and the benches: the device loads none
# of this module, each of its modules keeps private copies of what it uses (`_OK =
# const(3)`), which MicroPython folds away so that they cost no heap, where a module's
# public names do. tests/test_private_codes.py checks every copy.
from micropython import const

# Logical buttons (firmware/buttons.py gives them; the sim's keys are host_tools/sim.py's).
PREV = const(1)
NEXT = const(2)
OK = const(3)
BACK = const(4)
MENU = const(5)
LONG = const(0x10)      # or-ed into a button held down: LONG | NEXT

# Screens, in the order of their modules under firmware/ui/ (firmware/app.py SCREEN_NAMES).
HOME = const(0)
BID = const(1)
CONTRACT = const(2)
RESULT = const(3)
TRACKER = const(4)
CONFIRM = const(5)
OVER_SCREEN = const(6)
HISTORY = const(7)
SYNC = const(8)
SETUP = const(9)
MENU_SCREEN = const(10)

# Colours: a set bit is white paper on every panel here (the controllers' RAM convention).
WHITE = const(1)
BLACK = const(0)

# Type (firmware/fonts.py, firmware/ui/draw.py).
DIGIT_W = const(8)      # a big digit's cell in font pixels (scale 1)
DIGIT_H = const(12)
LINE = const(10)        # pixels a line of the 8x8 font takes
