# The sitting interface every game family offers (apply, check, undo, the state readers,
# reason, its event codec as `.codec`): one call makes the right family's sitting. Each
# family's engine module is loaded only when a sitting of it is made.
FOR_A_WHILE = 1     # on the device, unloaded once nothing refers to it (firmware/transient.py)
_ENGINES = (("engine_core.texas42.sitting", "Sitting"),     # family 0: 42 and its relatives
            ("engine_core.gin.sitting", "GinSitting"))  # gin.rules.GIN: the gin pads


def new_sitting(rules, dealer=0):
    """A sitting of the rules' family: the 42 family's Sitting or a GinSitting."""
    path, name = _ENGINES[rules.family]
    return getattr(__import__(path, None, None, (name,)), name)(rules, dealer)
