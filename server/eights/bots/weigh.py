"""Hard at a table with special cards (Newfoundland): pickups, skips and reversals weighed
against the seat that is close to going out.

Hard starts from the play Medium would choose with its connected cards kept (twos and eights
saved), and leaves it for a play whose effect is worth more, in cards:

- a pickup (a two, the queen of spades) on the next seat: the cards it must pick up and the
  turn it loses, times the chance it holds no answer (from the cards unseen, less those the
  log shows it cannot hold); at two players the layer then moves again, and an answered
  pickup comes back to it;
- a jack: the next seat loses its turn (at two players the layer moves again);
- a king at three or more: the play turns away from the next seat to the one before;
- each weighed by how close that seat is to going out (1 + urgency / its cards; at three or
  more, a seat that is neither the closest to going out nor down to two cards counts only
  ``bystander`` as much), and net of what spending a two (the card that answers a pickup)
  or an eight costs;
- and the seat that acts next after the play, if it holds one card: the chance that it
  lays it (on the card laid, or as an answer to a pickup) counts as ``out_weight`` cards.

At two players it first looks for a run of jacks (and pickups nobody can answer) that lets
it lay its whole hand this turn. A pickup waiting for it is always answered when it can be:
with every two it holds, unless at two players the other seat likely holds a two too, when
one two goes and the rest wait to answer again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from eights.rules import Action, SeatView
from eights.rules.cards import EIGHT, QUEEN, RANK_OF, SUIT_OF, TWO, Card

from .belief import RANK_MASK, Belief, fitting
from .effects import PICKUP, REVERSE, SKIP, Effects
from .medium import medium_choice, play_value, unseen_by_suit
from .reading import read_moves
from .tactics import fallback, is_wild, plays_of, without


class Weights(Protocol):
    """What ``weigh`` reads of Hard's settings (``hard.Hard`` holds them and says what
    each one means); a protocol, so that this module need not import the bot it serves."""

    @property
    def threshold(self) -> float: ...
    @property
    def urgency(self) -> float: ...
    @property
    def bystander(self) -> float: ...
    @property
    def answer_back(self) -> float: ...
    @property
    def pickup_weight(self) -> float: ...
    @property
    def skip_weight(self) -> float: ...
    @property
    def reverse_weight(self) -> float: ...
    @property
    def out_weight(self) -> float: ...
    @property
    def two_cost(self) -> float: ...
    @property
    def wild_cost(self) -> float: ...


def names_a_held_suit(view: SeatView, play: Action) -> bool:
    """An eight names a suit the hand still holds (pressing with a suit it holds none of
    leaves it to draw next: over thousands of eights, it cost more than it won)."""
    if play.suit is None:
        return True
    rest = without(view.hand, play.cards)
    return not rest or any(SUIT_OF[c] == play.suit and not is_wild(c) for c in rest)


TWOS = RANK_MASK[TWO]
QUEENS = RANK_MASK[QUEEN]


def weigh(view: SeatView, legal: Sequence[Action], hard: Weights, effects: Effects) -> Action:
    """Hard's choice where special cards are in play."""
    plays = plays_of(legal)
    if not plays:
        return fallback(legal)
    going_out = next((p for p in plays if len(p.cards) == len(view.hand)), None)
    if going_out is not None:
        return going_out
    belief, _ = read_moves(view, tells=False)
    if view.table.pending is not None:
        return answer(view, plays, belief, effects, hard)
    base = medium_choice(view, legal, connected=True)
    if effects.players == 2:
        run = clearing_run(view, plays, belief, effects)
        if run is not None:
            return run
    if len(plays) < 2:
        return base

    def gain(play: Action) -> float:
        return play_gain(view, belief, play, hard, effects)

    best = max((p for p in plays if names_a_held_suit(view, p)), key=gain, default=base)
    return best if gain(best) - gain(base) > hard.threshold else base


def urgency(view: SeatView, seat: int, hard: Weights) -> float:
    """How much stopping ``seat`` counts: more the fewer cards it has left; at three or more,
    only ``bystander`` as much for a seat that is not (one of) the closest to going out and
    holds more than two cards, since stopping it helps the other seats as much as this one."""
    counts = view.table.counts
    mine = 1.0 + hard.urgency / max(1, counts[seat])
    if len(counts) > 2 and counts[seat] > 2:
        closest = min(c for s, c in enumerate(counts) if s != view.seat)
        if counts[seat] > closest:
            return mine * hard.bystander
    return mine


def answer_mask(kind: str) -> int:
    return TWOS if kind == "two" else QUEENS


def answer(
    view: SeatView, plays: list[Action], belief: Belief, effects: Effects, hard: Weights
) -> Action:
    """The answer to the pickup waiting for this seat (every play offered is one)."""
    table = view.table
    assert table.pending is not None
    value = play_value(view, unseen_by_suit(view), connected=True)
    size = max(len(p.cards) for p in plays)
    if table.pending["kind"] == "two" and size > 1:
        nxt = (view.seat + table.direction) % table.players
        if effects.players == 2 and belief.p_can_follow(nxt, TWOS) > hard.answer_back:
            size = 1  # it may well answer back: keep twos to answer again
    return max((p for p in plays if len(p.cards) == size), key=value)


def play_gain(
    view: SeatView, belief: Belief, play: Action, hard: Weights, effects: Effects
) -> float:
    """What ``play`` is worth beyond an ordinary card, in cards (see the module's text)."""
    table = view.table
    n = table.players
    me = view.seat
    d = table.direction
    nxt = (me + d) % n
    last = play.cards[-1]
    rest = without(view.hand, play.cards)
    effect = effects.effect(last)
    gain = 0.0
    actor = nxt
    if effect == PICKUP:
        kind = "two" if RANK_OF[last] == TWO else "queen"
        count = effects.pickup(play.cards)
        p_answer = belief.p_can_follow(nxt, answer_mask(kind)) if effects.answering else 0.0
        gain += hard.pickup_weight * urgency(view, nxt, hard) * (1 - p_answer) * (count + 1)
        if table.counts[nxt] == 1:
            gain -= hard.out_weight * p_answer  # its last card answers: it goes out
        if n == 2:
            gain += (1 - p_answer) * follow_up(rest, last, play.suit)
            held = sum(1 for c in rest if belief_answers(c, kind))
            if not held:
                grown = count + (effects.twos if kind == "two" else effects.queen_pickup)
                gain -= p_answer * (grown + 1)
            actor = -1
        else:
            actor = (nxt + d) % n
    elif effect == SKIP:
        gain += hard.skip_weight * urgency(view, nxt, hard)
        if n == 2:
            gain += follow_up(rest, last, play.suit)
            actor = -1
        else:
            actor = (nxt + d) % n
    elif effect == REVERSE:
        prv = (me - d) % n
        gain += hard.reverse_weight * (urgency(view, nxt, hard) - urgency(view, prv, hard))
        actor = prv
    if actor >= 0:
        gain += pressure_on(view, belief, play, actor, hard)
        if table.counts[actor] == 1:
            gain -= hard.out_weight * going_out_chance(belief, play, actor)
    gain -= hard.two_cost * sum(1 for c in play.cards if effects.is_two(c))
    if is_wild(last):
        gain -= hard.wild_cost
    return gain


def belief_answers(card: Card, kind: str) -> bool:
    return RANK_OF[card] == (TWO if kind == "two" else QUEEN)


def follow_up(rest: list[Card], last: Card, named: int | None) -> float:
    """What moving again on ``last`` is worth: a card shed if one of ``rest`` fits it."""
    suit = named if named is not None else SUIT_OF[last]
    fits = fitting(suit, RANK_OF[last])
    return 1.0 if any(fits >> c & 1 for c in rest) else 0.0


def going_out_chance(belief: Belief, play: Action, seat: int) -> float:
    """The chance that ``seat``, down to one card and next to act after ``play``, lays it."""
    last = play.cards[-1]
    suit = play.suit if play.suit is not None else SUIT_OF[last]
    return belief.p_can_follow(seat, fitting(suit, RANK_OF[last]))


def pressure_on(view: SeatView, belief: Belief, play: Action, seat: int, hard: Weights) -> float:
    """Cards ``seat``, the next to act after ``play``, is expected to draw because it
    cannot follow it (as ``hard.pressure`` does for the next seat)."""
    last = play.cards[-1]
    suit = play.suit if play.suit is not None else SUIT_OF[last]
    fits = fitting(suit, RANK_OF[last])
    stop_chance = 1.0 - belief.p_can_follow(seat, fits)
    draws = (belief.unseen.bit_count() + 1) / ((belief.unseen & fits).bit_count() + 1)
    return urgency(view, seat, hard) * stop_chance * draws


def clearing_run(
    view: SeatView, plays: list[Action], belief: Belief, effects: Effects
) -> Action | None:
    """At two players: the first play of a run that lays the whole hand this turn, each card
    but the last a jack (the layer moves again) or a pickup nobody can answer."""
    unseen = belief.unseen

    def again(cards: tuple[Card, ...]) -> bool:
        effect = effects.effect(cards[-1])
        if effect == SKIP:
            return True
        if effect != PICKUP:
            return False
        kind = "two" if RANK_OF[cards[-1]] == TWO else "queen"
        return not (effects.answering and unseen & answer_mask(kind))

    def clears(hand: list[Card], suit: int, rank: int, depth: int) -> bool:
        fits = fitting(suit, rank)
        playable = [c for c in hand if fits >> c & 1]
        if len(hand) == 1:
            return bool(playable)
        if depth > 6:
            return False
        for card in playable:
            group: tuple[Card, ...] = (card,)
            if effects.is_two(card):  # all the twos together (only twos go down together)
                group = (card, *(c for c in hand if effects.is_two(c) and c != card))[:4]
            if len(group) == len(hand):
                return True
            if again(group) and RANK_OF[card] != EIGHT:
                left = without(hand, group)
                if clears(left, SUIT_OF[group[-1]], RANK_OF[group[-1]], depth + 1):
                    return True
        return False

    for play in plays:
        cards = play.cards
        if is_wild(cards[-1]) or not again(cards):
            continue
        left = without(view.hand, cards)
        if left and clears(left, SUIT_OF[cards[-1]], RANK_OF[cards[-1]], 0):
            return play
    return None
