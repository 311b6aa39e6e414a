# The gin pads' own refusal codes, after the shared ones of engine_core/errors.py
# (gin/messages.py explains them).
from engine_core.compat import const

E_GIN_TURNUP_FIRST = const(40)
E_GIN_TURNUP_TAKEN = const(41)
E_GIN_NO_TURNUP = const(42)
E_GIN_NO_KNOCK = const(43)
E_GIN_KNOCK_ZERO = const(44)
E_GIN_KNOCK_LIMIT = const(45)
E_GIN_TOTAL = const(46)
E_GIN_BONUS_OFF = const(47)
E_GIN_BONUS_MANY = const(48)
E_GIN_TOTALS = const(49)
E_GIN_CONTRACT = const(50)
E_GIN_RANK = const(51)
E_GIN_ACE = const(56)     # a knock after an ace turn-up under ace_turnup: gin
