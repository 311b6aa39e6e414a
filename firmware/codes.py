# The codes shared by the firmware's modules: the logical buttons, the screens' names,
# the colours and the type's sizes.
from micropython import const

# Logical buttons (firmware/buttons.py gives them; the sim's keys are host_tools/sim/screen.py's).
PREV = const(1)
NEXT = const(2)
OK = const(3)
BACK = const(4)
MENU = const(5)
LONG = const(0x10)      # or-ed into a button held down: LONG | NEXT

# Screens, by name: each is the module of that name under firmware/ui/. A gin pad's
# sitting shows its own module for three of them (GIN_SCREENS).
HOME = "score"
BID = "bidding"
CONTRACT = "contract"
RESULT = "result"
TRACKER = "tracker"
CONFIRM = "confirm"
OVER_SCREEN = "over"
HISTORY = "history"
SYNC = "sync"
SETUP = "setup"
MENU_SCREEN = "menu"
GIN_SCREENS = {HOME: "gin_score", RESULT: "gin_totals", CONFIRM: "gin_confirm"}

# Colours: a set bit is white paper on every panel here (the controllers' RAM convention).
WHITE = const(1)
BLACK = const(0)

# Type (firmware/fonts.py, firmware/ui/draw.py).
DIGIT_W = const(8)      # a big digit's cell in font pixels (scale 1)
DIGIT_H = const(12)
LINE = const(10)        # pixels a line of the 8x8 font takes
