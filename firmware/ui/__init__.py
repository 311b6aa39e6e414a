# The scorer's screens: one module a screen, each with draw(app, fb) and press(app, key)
# (and enter(app) when the screen sets its cursor on arrival). Logical buttons below.
from micropython import const

PREV = const(1)
NEXT = const(2)
OK = const(3)
BACK = const(4)
MENU = const(5)
LONG = const(0x10)      # or-ed into a button held down: LONG | NEXT
