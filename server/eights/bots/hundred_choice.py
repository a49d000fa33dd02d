"""Medium's and Hard's choice at the 101 table (``hundred-and-one``), and whether they
declare a bridge. Every judgement here is a score for each legal action, made from the view
alone as ``hundred_table.py`` reads it; Medium and Hard share it and Hard adds terms
(``Judge``). At every other table none of this runs: ``is_101`` is false wherever the wild
rank is the eight and no card acts after a move.

Medium:
- goes out whenever it can (on jacks when it can: -20 each);
- lays as many cards of one rank as it can, the last one of its strongest suit (held, less
  unseen), and sheds points (an ace or a ten before a nine);
- lays a six only when it can cover it from its hand without a jack, and covers a six with
  the cheapest card that fits (never a jack while another card fits);
- lays the queen of spades last in a move (so that the next seat draws five), never in the
  middle of a move of queens;
- spends a jack only when no other card fits (or to go out), and names its strongest suit;
- never draws while a card fits (a card drawn is a card to shed later).

Hard also:
- weighs what its sevens, eights, aces and the queen of spades do to the seats they hit,
  more the fewer cards a seat holds (1 + 3 / its cards), and the move it gets again once
  every other seat owes a skip (at two seats, after each skip);
- judges a turn as a whole: after a six to cover, or a skip that gives it the move again,
  it adds the best of what it can lay next (``plan``, three moves deep, at most ``NODES``
  moves judged a decision);
- sheds points harder as the bank's multiplier rises, as the bank runs low and as its own
  total nears the limit;
- lays the fourth card of a bridge when declaring it would pay, and declares by comparing
  its own hand's points (less 20 for each jack of the move) with what the others likely hold,
  with an eye on the limit (a total that lands on the limit or half of it goes back to 0;
  one over it is out; others pushed over it count for it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from eights.rules import Action, ActionType, SeatView
from eights.rules.cards import RANK_OF, SUIT_OF, Card

from .hundred_table import Table, field, fits, hits, makes_bridge, moves_again


def continuations(table: Table) -> list[Action]:
    """The plays a seat that moves again could make (``table`` after its move): each card
    that fits alone, and every card of its rank together with the one that fits first (a
    queen of spades last); a jack orders the suit held most."""
    view = table.view
    hand = view.hand
    if not hand:
        return []
    top = view.table.pile[-1]
    suit = view.table.suit_in_force
    held = [0, 0, 0, 0]
    for c in hand:
        if not table.is_wild(c):
            held[SUIT_OF[c]] += 1
    order = max(range(4), key=lambda s: held[s])
    out: list[Action] = []
    for card in hand:
        if not fits(table, card, top, suit):
            continue
        named = order if table.is_wild(card) else None
        out.append(Action(ActionType.PLAY, (card,), named))
        same = [c for c in hand if RANK_OF[c] == RANK_OF[card] and c != card]
        if same:
            same.sort(key=lambda c: (c in table.last_draws, held[SUIT_OF[c]]))
            out.append(Action(ActionType.PLAY, (card, *same), named))
    return out


def urgency(table: Table, seat: int) -> float:
    return 1.0 + 3.0 / max(1, table.view.table.counts[seat])


def weight(table: Table, seat: int) -> float:
    """How much hitting ``seat`` counts: its urgency, and at three or more only a third as
    much for a seat neither closest to going out nor down to two cards (hitting it helps
    the other seats as much as this one)."""
    counts = table.view.table.counts
    mine = urgency(table, seat)
    others = [s for s in table.in_play() if s != table.view.seat]
    if len(others) > 1 and counts[seat] > 2 and counts[seat] > min(counts[s] for s in others):
        return mine * 0.3
    return mine


@dataclass(frozen=True)
class Judge:
    """The weights of a 101 judgement; ``hard`` switches on Hard's terms."""

    hard: bool = False
    per_card: float = 3.0
    """Each card laid (a move of several cards of one rank sheds them all)."""
    per_point: float = 0.12
    """Each point laid, at multiplier 1 (Hard: more as the multiplier and the bank grow)."""
    jack_cost: float = 14.0
    """Spending a jack before the move that goes out."""
    suit_weight: float = 1.0
    """Cards held of the suit left in force, less half the unseen ones."""
    hit_weight: float = 1.0
    """Hard: each card a seat must draw (a skipped turn counts 1.5)."""
    depth: int = 0
    """Hard: moves of its own judged ahead when it moves again (``plan``)."""

    def point_weight(self, table: Table) -> float:
        if not self.hard:
            return self.per_point
        view = table.view
        weight = self.per_point * table.multiplier
        stock = view.table.stock_size
        if stock <= 4:  # the bank runs out soon: the multiplier is about to rise
            weight += self.per_point * 0.5
        if table.limit:
            total = view.table.scores[view.seat]
            if total + table.hand_points(view.hand) * table.multiplier > table.limit * 0.7:
                weight += self.per_point
        return weight

    def score(self, table: Table, action: Action) -> float:
        view = table.view
        cards = action.cards
        rest = [c for c in view.hand if c not in cards]
        last = cards[-1]
        rank = RANK_OF[last]
        jacks = sum(1 for c in cards if table.is_wild(c))
        if not rest and not table.must_cover(last):
            return 1000.0 + table.wild_out * jacks + len(cards)
        value = self.per_card * len(cards)
        value += self.point_weight(table) * table.hand_points(cards)
        value -= self.jack_cost * jacks
        if any(c in table.last_draws for c in cards[:-1]):
            value -= 25.0  # a queen of spades in the middle of a move: its five are lost
        if table.must_cover(last):
            value -= self.cover_cost(table, rest, last)
            suit = None
        else:
            suit = action.suit if action.suit is not None else SUIT_OF[last]
        if suit is not None:
            held = float(sum(1 for c in rest if SUIT_OF[c] == suit and not table.is_wild(c)))
            held += sum(1 for c in rest if RANK_OF[c] == rank and not table.is_wild(c)) * 0.5
            unseen = sum(1 for c in table.unseen() if SUIT_OF[c] == suit and not table.is_wild(c))
            value += self.suit_weight * (held - 0.5 * unseen)
        if self.hard:
            value += self.hard_terms(table, action, rest)
        elif last in table.last_draws:
            value += 3.0
        return value

    def plan(self, table: Table, action: Action, depth: int, budget: list[int]) -> float:
        """The score of ``action`` plus, when the same seat moves again after it (a six to
        cover; at two seats, a skip), the best score of what it can lay next, ``depth``
        moves deep: a turn judged as a whole (six, cover; ace, ace, out). ``budget`` counts
        down the moves judged ahead; once spent, a move is judged alone (``NODES``)."""
        value = self.score(table, action)
        if depth <= 0 or value >= 1000.0 or budget[0] <= 0:
            return value
        cards = action.cards
        last = cards[-1]
        covering = table.must_cover(last)
        if not covering and not moves_again(table, cards):
            return value
        child = Table.after_move(table, action)
        options = continuations(child)[: budget[0]]
        if not options:
            return value
        budget[0] -= len(options)
        best = max(self.plan(child, a, depth - 1, budget) for a in options)
        if covering:
            rest = [c for c in table.view.hand if c not in cards]
            return value + self.cover_cost(table, rest, last) + best
        return value + max(0.0, best)

    def cover_cost(self, table: Table, rest: list[Card], six: Card) -> float:
        """What covering a six laid now will cost: little with a card that fits, more with
        a jack only, most with nothing (draw until something fits)."""
        plain = [c for c in rest if not table.is_wild(c) and fits(table, c, six, SUIT_OF[six])]
        if plain:
            return 1.0
        if any(table.is_wild(c) for c in rest):
            return 12.0
        return 18.0

    def hard_terms(self, table: Table, action: Action, rest: list[Card]) -> float:
        view = table.view
        cards = action.cards
        value = 0.0
        for seat, (draw, skip) in hits(table, cards).items():
            value += self.hit_weight * weight(table, seat) * (draw + 1.5 * skip)
        if moves_again(table, cards):
            # every other seat skips: worth a card if it can follow its own card
            last = cards[-1]
            again = any(fits(table, c, last, SUIT_OF[last]) for c in rest)
            value += 2.0 if again else 0.5
        jacks = sum(1 for c in cards if table.is_wild(c))
        if makes_bridge(view, cards) and bridge_pays(table, rest, jacks, hard=True):
            value += 40.0
        if table.limit:  # the hand left would land this seat's total on the limit or half
            left = table.hand_points(rest) * table.multiplier
            landing = view.table.scores[view.seat] + left
            if left and landing in (table.limit, table.limit // 2):
                value += 2.0
        # a seat close to going out: leave it a suit it is unlikely to hold
        nxt = table.after(view.seat)
        if view.table.counts[nxt] <= 2 and not table.must_cover(cards[-1]):
            suit = action.suit if action.suit is not None else SUIT_OF[cards[-1]]
            unseen = table.unseen()
            share = sum(1 for c in unseen if SUIT_OF[c] == suit or table.is_wild(c))
            value -= 4.0 * urgency(table, nxt) * share / max(1, len(unseen))
        return value


NODES = 400
"""Moves Hard judges ahead in one decision, at most (its time is bound by this count: each
move judged is one ``Judge.score``)."""
MEDIUM = Judge()
HARD = Judge(hard=True, depth=3)


def choose(view: SeatView, legal: Sequence[Action], judge: Judge) -> Action:
    """Medium's or Hard's action at a 101 table."""
    table = Table.of(view)
    bridge = next((a for a in legal if a.type is ActionType.BRIDGE), None)
    if bridge is not None and declares(view, judge.hard):
        return bridge
    plays = [a for a in legal if a.type is ActionType.PLAY]
    if not plays:
        order = best_order(table, legal)
        return order if order is not None else _fallback(legal)
    scores = play_scores(table, plays, judge)
    return plays[max(range(len(plays)), key=lambda i: scores[i])]


def play_scores(table: Table, plays: Sequence[Action], judge: Judge) -> list[float]:
    """The judge's score of each play, in order (Hard's looks ahead, ``NODES`` moves at
    most over them all); the first best is its choice."""
    if judge.depth:
        budget = [NODES]
        return [judge.plan(table, a, judge.depth, budget) for a in plays]
    return [judge.score(table, a) for a in plays]


def best_order(table: Table, legal: Sequence[Action]) -> Action | None:
    """The dealer's order for its opening jack: the suit it holds the most of (jacks aside),
    the jack's own suit on a tie; None when no order is legal (or the own suit is best:
    passing keeps it)."""
    orders = {a.suit: a for a in legal if a.type is ActionType.ORDER}
    if not orders:
        return None
    hand = table.view.hand
    own = table.view.table.suit
    counts = {s: sum(1 for c in hand if SUIT_OF[c] == s and not table.is_wild(c)) for s in orders}
    suit = max(counts, key=lambda s: (counts[s], s == own))
    return None if suit == own else orders[suit]


def _fallback(legal: Sequence[Action]) -> Action:
    for kind in (ActionType.DRAW, ActionType.PASS):
        for action in legal:
            if action.type is kind:
                return action
    return next((a for a in legal if a.type is not ActionType.BRIDGE), legal[0])


def bridge_pays(table: Table, hand: Sequence[Card], jacks: int, hard: bool) -> bool:
    """Whether declaring a bridge now (``hand`` left, ``jacks`` in the move that made it) is
    worth it: this seat's score now (its hand, less the jacks' points, times the multiplier)
    is no more than the others' likely hands (their cards times the mean points of the cards
    unseen). Hard also looks at the limit: never when its total would go over it, always
    when it would land on the limit or half of it, and each other seat the round's end would
    likely push over the limit counts 15 points for it."""
    view = table.view
    me = view.seat
    m = table.multiplier
    mine = (table.hand_points(hand) - table.wild_out * jacks) * m
    mean = table.mean_unseen_points()
    others = [s for s in table.in_play() if s != me]
    if not others:
        return True
    counts = view.table.counts
    expected = {s: counts[s] * mean * m for s in others}
    now = mine - sum(expected.values()) / len(others)
    limit = table.limit
    if hard and limit:
        scores = view.table.scores
        after = scores[me] + mine
        if after > limit:
            return False
        if after in (limit, limit // 2) and mine > 0:
            return True
        now -= 15.0 * sum(1 for s in others if scores[s] + expected[s] > limit)
    return now <= 0


def declares(view: SeatView, hard: bool) -> bool:
    """Whether this seat, whose last move made a bridge, declares it."""
    table = Table.of(view)
    info = field(view, "bridge", None)
    jacks = int(info.get("jacks", 0)) if isinstance(info, dict) else 0
    return bridge_pays(table, view.hand, jacks, hard)
