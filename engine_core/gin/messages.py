# The short messages that explain the gin engine's refusals. Loaded only when a refusal
# is shown (it allocates), and unloaded again on the device.
from engine_core import errors as E
from engine_core.gin import errors as GE
from engine_core.gin import codec as Gc
from engine_core.gin import rules as G
from engine_core.gin.codec import EV_GIN, EV_KNOCK


def explain(s, err, ev):
    """The message for refusal `err` of event `ev` by gin sitting `s` (allocates)."""
    kind = ev >> 24
    arg = ev & 0xFFFFFF
    name = s.rules.name
    top = s.total_max()
    if err == E.E_OVER:
        return "the game is over"
    if err == E.E_UNDO:
        return "nothing to undo"
    if err == E.E_FULL:
        return "the sitting's history is full"
    if err == GE.E_GIN_TURNUP_FIRST:
        return "key in the turn-up card first: it starts the hand"
    if err == GE.E_GIN_TURNUP_TAKEN:
        return "this hand's turn-up card is already keyed in (%s)" % rank_name(s.turnup_rank())
    if err == GE.E_GIN_NO_TURNUP:
        return "%s has no turn-up card" % name
    if err == GE.E_GIN_NO_KNOCK:
        return "there is no knocking in %s: a hand ends in gin or a draw-out" % name
    if err == GE.E_GIN_KNOCK_ZERO:
        return "a knock with 0 unmelded is a gin: key in gin"
    if err == GE.E_GIN_KNOCK_LIMIT:
        return "knock with %d is over the limit: the turn-up %s allows %d at most" % (
            Gc.knocker_total(arg), rank_name(s.turnup_rank()), s.limit())
    if err == GE.E_GIN_TOTAL:
        return total_over(_total_over(s, kind, arg, top), top)
    if err == GE.E_GIN_BONUS_OFF:
        if s.rules.variant == G.SEQUENCE:
            return "bonus cards need the bonus option"
        return "bonus cards are for Sequence Gin with the bonus option"
    if err == GE.E_GIN_BONUS_MANY:
        return "a hand holds 10 cards: at most 10 bonus cards"
    if err == GE.E_GIN_TOTALS:
        if s.row[G.TURNUP]:
            return "nobody scores a draw-out in %s: it takes no totals" % name
        return "a draw-out in %s needs both seats' unmelded totals" % name
    if err == GE.E_GIN_CONTRACT:
        return "the contract meld is Skarney Gin's: %s has none" % name
    if err == GE.E_GIN_ACE:
        return "an ace turn-up allows only gin (house rule ace_turnup), not a knock"
    if err == GE.E_GIN_RANK:
        return "not a card rank (A, 2 to 10, J, Q, K)"
    return "not a gin event"


def _total_over(s, kind, arg, top):
    if kind == EV_GIN:
        return Gc.gin_opponent(arg)
    if kind == EV_KNOCK:
        k = Gc.knocker_total(arg)
        return k if k > top else Gc.knock_opponent(arg)
    t = Gc.drawout_total(arg, 0)
    return t if t > top else Gc.drawout_total(arg, 1)


def total_over(total, top):
    """The refusal of a card total over `top` (the engine's and the log reader's)."""
    return "a total of %d is more than the cards allow (at most %d, %s)" % (
        total, top, "an opponent's 10 cards" if top == 100 else "the whole deck")


def rank_name(rank):
    """A turn-up rank as the log writes it ("A", "2" .. "10", "J", "Q", "K")."""
    if 1 <= rank <= 13:
        return G.RANK_NAMES[rank - 1]
    return str(rank)
