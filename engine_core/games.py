# The sitting interface every game family offers (apply, check, undo, the state readers,
# reason, its event codec as `.codec`): one call makes the right family's sitting.
def new_sitting(rules, dealer=0):
    """A sitting of the rules' family: the 42 family's Sitting or a GinSitting."""
    if rules.family:
        from engine_core.gin import GinSitting
        return GinSitting(rules, dealer)
    from engine_core.sitting import Sitting
    return Sitting(rules, dealer)


def is_gin(rules):
    return rules.family != 0
