# A gin pad's sitting header bytes (the frame, names and stamp are engine_core/header.py's,
# which hands the gin pads' fixed bytes here): byte 1 is 0x40 + the gin variant; then the
# target, the game and box bonuses (2 bytes each), the flags (spade_doubles,
# shutout_doubles, bonus, knock_scores, ace_turnup), deal, and gin_bonus and
# undercut_bonus less the game's own (0: the seed's 20, so a header written before them
# reads the same). Kept apart so that a 42 sitting never loads the gin options' names.
FOR_A_WHILE = 1     # on the device, unloaded once nothing refers to it (firmware/transient.py)
from engine_core.gin.rules import (TABLE, DEAL_NAMES, GinRules, KNOCK, GIN_BONUS,
                                   UNDERCUT_BONUS, BONUS_LO, BONUS_HI)


def encode(rules, dealer, version, byte1):
    """The 15 fixed header values of gin rules (version and byte 1 from header.py)."""
    flags = (rules.spade_doubles | rules.shutout_doubles << 1 | rules.bonus << 2
             | rules.knock_scores << 3 | rules.ace_turnup << 4)
    gin = rules.gin_bonus - rules.row[GIN_BONUS]
    under = rules.undercut_bonus - rules.row[UNDERCUT_BONUS]
    return (version, byte1, 0, rules.target & 0xFF,
            rules.target >> 8, rules.game_bonus & 0xFF, rules.game_bonus >> 8,
            rules.box_bonus & 0xFF, rules.box_bonus >> 8, flags, rules.deal, gin, under,
            dealer, 0)


def decode(buf, v):
    """The GinRules of gin variant v's header bytes; ValueError if they are not one."""
    if (v >= len(TABLE) or buf[10] >= len(DEAL_NAMES) or buf[13] > 1 or buf[9] >> 5
            or buf[11] > BONUS_HI - BONUS_LO or buf[12] > BONUS_HI - BONUS_LO
            or (not TABLE[v][KNOCK] and (buf[11] or buf[12] or buf[9] >> 3))):
        raise ValueError("not a sitting header")
    rules = GinRules(v)
    rules.target = buf[3] | buf[4] << 8
    rules.game_bonus = buf[5] | buf[6] << 8
    rules.box_bonus = buf[7] | buf[8] << 8
    rules.spade_doubles = buf[9] & 1
    rules.shutout_doubles = buf[9] >> 1 & 1
    rules.bonus = buf[9] >> 2 & 1
    rules.deal = buf[10]
    rules.knock_scores = buf[9] >> 3 & 1
    rules.ace_turnup = buf[9] >> 4 & 1
    rules.gin_bonus += buf[11]
    rules.undercut_bonus += buf[12]
    return rules
