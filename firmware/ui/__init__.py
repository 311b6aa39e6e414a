# The scorer's screens: one module a screen, each with draw(app, fb) and press(app, key)
# (and enter(app) when the screen sets its cursor on arrival). The logical buttons and the
# screens' numbers are in firmware/codes.py; each module keeps private copies of those it
# uses (tests/test_private_codes.py checks them).
