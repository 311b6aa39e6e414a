"""Sitting logs for event tests and the event bench: a 42 sitting to 7 marks where the
side asked for wins, built hand by hand (a bid of 30, made or set), checked by replay."""
import json


def sitting_42(players, winner, loser_marks, sitting_id, target=7):
    """Log text (JSON Lines) of a finished 42 sitting: side `winner` (0: seats 0 and 2)
    reaches `target` marks, the other side has `loser_marks` (< target)."""
    marks = [0, 0]
    order = []
    # The loser's marks come early, the winner's last mark ends the sitting.
    for i in range(loser_marks + target):
        order.append(1 - winner if i % 2 and marks[1 - winner] < loser_marks
                     or marks[winner] >= target - 1 and marks[1 - winner] < loser_marks
                     else winner)
        marks[order[-1]] += 1
    lines = [{"type": "sitting", "variant": "42", "id": sitting_id, "players": list(players),
              "dealer": 0}]
    for h, side in enumerate(order):
        bidder = (h + 1) % 4
        lines.append({"type": "bid", "bid": 30})
        lines += [{"type": "bid", "bid": "pass"}] * 3
        lines.append({"type": "trump", "trump": 5})
        lines.append({"type": "result", "points": 31 if bidder % 2 == side else 20})
    return "".join(json.dumps(x) + "\n" for x in lines)


def partial_42(players, hands, sitting_id):
    """A sitting in progress: `hands` hands, each made by the bidder."""
    lines = [{"type": "sitting", "variant": "42", "id": sitting_id, "players": list(players),
              "dealer": 0}]
    for h in range(hands):
        lines.append({"type": "bid", "bid": 30})
        lines += [{"type": "bid", "bid": "pass"}] * 3
        lines.append({"type": "trump", "trump": 5})
        lines.append({"type": "result", "points": 31})
    return "".join(json.dumps(x) + "\n" for x in lines)
