# The scorer's screens: one module a screen, each with draw(app, fb) and press(app, key)
# (and enter(app) when the screen sets its cursor on arrival). A screen is named by its
# module (firmware/codes.py HOME ...); the logical buttons are firmware/codes.py's too.
