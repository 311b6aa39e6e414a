"""A table assignment as given on the command line (`tally42 sync --assign
EVENT:ROUND:TABLE` with --players and --set), checked as the scorer checks it before
anything is sent; the players as the table's sides. SetupError says what is wrong."""
from host_tools.tables.assignment import check_assignment, setting_value


class SetupError(ValueError):
    """A setting the scorer would refuse: the message says which and why."""


def check_table(text, players, pairs):
    # --assign EVENT:ROUND:TABLE, with --players and --set for the game: the assignment
    # dict of host_tools.tables.assignment.check_assignment, checked before anything is sent.
    event, _, rest = text.rpartition(":")
    event, _, rnd = event.rpartition(":")
    if not event:
        raise SetupError("--assign %s: give EVENT:ROUND:TABLE (Club night:2:3)" % text)
    a = {"event": event.strip(), "round": whole(rnd), "table": whole(rest)}
    if players:
        a["players"] = players
    options = {}
    for key, value in pairs:
        if key == "variant":
            a["variant"] = value
        elif key == "tracker":
            raise SetupError("--assign: tracker is the scorer's own switch, not the "
                               "game's: push it without --assign")
        else:
            options[key] = setting_value(value, key)
    a["options"] = options
    try:
        return check_assignment(a)
    except ValueError as e:
        raise SetupError("--assign %s: %s" % (text, e))


def whole(text):
    try:
        return int(text.strip())
    except ValueError:
        return text


def sides(players):
    # Players by seat as the table's sides: "Ann+Cy v Bob+Di" (seats 1 and 3 partner 2
    # and 4; six seats: three a side).
    return "%s v %s" % ("+".join(players[0::2]), "+".join(players[1::2]))
