# What the PC sets in a sync for the sitting on the table and the next one: the players'
# names and the next sitting's setup (house options, table assignment), kept in the
# settings file. Loaded by a sync session or the radio's next table, and unloaded once
# neither refers to it (firmware/transient.py).
FOR_A_WHILE = 1     # unloaded once nothing refers to it (firmware/transient.py)
from engine_core import header
from engine_core.texas42.variants import SEATS, TEAMS
from firmware.scorer import pair


def set_names(scorer, names):
    """Player names for the sitting on the table and every new one: None, or why they
    are refused. A sitting played out keeps the names it was played by."""
    s = scorer.s
    if s is None or s.over():
        return update(scorer, None, names)
    if len(names) != s.seats:
        return "%d player names for %d seats" % (len(names), s.seats)
    scorer.names = names
    if s.row[TEAMS]:
        scorer.teams = (pair(names, 0), pair(names, 1))
    return update(scorer, None, names)


def update(scorer, changes, names, assign=0):
    """The next sitting's setup with `changes` (house options), `names` (players) and
    `assign` (a new table assignment, None for none; 0 keeps the one set up): None, or
    why the options are refused (then nothing changes)."""
    if changes:
        from engine_core.texas42 import options as O
        errors = (O.OptionError, ValueError)
    else:
        errors = ValueError
    last = scorer.last_setup
    try:
        if last:
            rules, dealer, old = header.decode_header(last)
        else:
            from engine_core.texas42.rules import Rules
            rules, dealer, old = Rules(0), 0, None     # plain 42
        if changes:
            variant = changes.pop("variant", rules.name)
            merged = O.to_dict(rules) if variant == rules.name else {}
            if "min_bid" in changes and merged.get("forced_min") == merged.get("min_bid"):
                merged.pop("forced_min", None)  # it was min_bid's default: it follows min_bid
            merged.update(changes)
            if not merged.get("nello"):
                for key in ("nello_min", "nello_by"):   # refused without nello
                    if key not in changes:
                        merged.pop(key, None)
            if "scoring" in changes and "target" not in changes:
                merged.pop("target", None)
            if merged.get("scoring") == "points":
                for key in O.SPECIAL:
                    merged.pop(key, None)
            rules = O.resolve(variant, merged)
        if names is None or len(names) != rules.row[SEATS]:
            names = old
        if assign == 0:
            try:
                assign = header.header_assignment(last) if last else None
            except ValueError:
                assign = None
        scorer.last_setup = header.encode_header(rules, dealer, names, 0, 0, 0, assign)
    except errors as e:
        return str(e)
    scorer.save_settings()
    return None
