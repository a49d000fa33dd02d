"""Hard: Medium's sense of suits, plus what the log gives away and the endgame (002: "Hard
also evaluates connected cards and an opponent close to finishing").

For each legal play it weighs, from its view alone:
- the chance that the next seat cannot follow (from the cards it has not seen, less those the
  log shows that seat cannot hold: a seat that had to draw on hearts holds no heart), times
  the cards that seat would likely draw, and more the fewer cards that seat has left;
- how well the suit left in force is held (own cards of it less unseen ones, as Medium);
- its connected cards: the suits it still holds and its eights, which let it follow
  whatever comes, and the cards it keeps that could follow the card it lays;
- wilds: an eight is spent only when that pays, and kept as a last card when it can be.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from eights.rules import KEEP, Action, ActionType, SeatView
from eights.rules.cards import EIGHT, RANK_OF, SUIT_OF, Card

from .belief import Belief, fitting, read_belief
from .medium import medium_choice, points_table
from .tactics import fallback, is_wild, plays_of, suit_counts, without


@dataclass(frozen=True)
class Weights:
    """The weights of Hard's judgement, tuned by tournaments against Medium (docs/bots.md)."""

    stop: float = 6.0
    """Value of a card the next seat is expected to draw because it cannot follow."""
    urgency: float = 3.0
    """Extra weight on stopping a seat with few cards: times 1 + urgency / its cards."""
    control: float = 1.0
    unseen: float = 1.0
    connected: float = 0.0
    """Value of each kept card that could follow the card laid."""
    flex: float = 2.5
    """Value of each suit still held, and twice that for each eight kept."""
    wild_spent: float = 3.0
    last_card_wild: float = 4.0
    last_card_follows: float = 2.0


@dataclass(frozen=True)
class Judgement:
    action: Action
    value: float
    stop_chance: float
    """The chance that the next seat cannot follow this play."""


@dataclass(frozen=True)
class Hard:
    seed: str = "hard"
    weights: Weights = field(default_factory=Weights)
    threshold: float = 0.3
    """Expected cards the next seat must draw that make Hard leave its connected play."""

    def __call__(self, view: SeatView, legal: Sequence[Action]) -> Action:
        return press(view, legal, self.weights, self.threshold).action


def press(view: SeatView, legal: Sequence[Action], w: Weights, threshold: float) -> Judgement:
    """Hard's choice: Medium's sense of suits with connected cards kept, left for a play
    that the next seat is likelier to have to draw on (by what the log shows it cannot hold)
    when that is worth more than ``threshold`` cards; a play that goes out, always."""
    base = medium_choice(view, legal, connected=True)
    plays = plays_of(legal)
    if base.type is not ActionType.PLAY or len(plays) < 2:
        return Judgement(base, 0.0, 0.0)
    belief = read_belief(view)
    judged = [judge(view, belief, p, plays, w) for p in plays]
    going_out = next((j for j in judged if j.value >= 1e9), None)
    if going_out is not None:
        return going_out
    table = view.table
    following = (view.seat + table.direction) % table.players
    urgency = 1.0 + w.urgency / max(1, table.counts[following])
    base_wild = is_wild(base.cards[-1])

    def pressure(j: Judgement) -> float:
        last = j.action.cards[-1]
        suit = j.action.suit if j.action.suit is not None else SUIT_OF[last]
        fits = fitting(suit, RANK_OF[last])
        draws = (belief.unseen.bit_count() + 1) / ((belief.unseen & fits).bit_count() + 1)
        spent = w.wild_spent if is_wild(last) and not base_wild else 0.0
        return urgency * j.stop_chance * draws - spent

    mine = next(j for j in judged if j.action == base)
    best = max(judged, key=pressure)
    return best if pressure(best) - pressure(mine) > threshold else mine


def best_play(view: SeatView, legal: Sequence[Action], weights: Weights | None = None) -> Judgement:
    """The legal action Hard prefers, with how it judged it."""
    w = weights or Weights()
    plays = plays_of(legal)
    if view.drawn is not None and KEEP in legal and is_wild(view.drawn) and len(view.hand) > 1:
        return Judgement(KEEP, 0.0, 0.0)
    if not plays:
        return Judgement(fallback(legal), 0.0, 0.0)
    belief = read_belief(view)
    return max((judge(view, belief, play, plays, w) for play in plays), key=lambda j: j.value)


def judge(
    view: SeatView, belief: Belief, play: Action, plays: list[Action], w: Weights
) -> Judgement:
    """How good ``play`` is for the seat of ``view``, in cards (higher is better)."""
    rest = without(view.hand, play.cards)
    if not rest:
        return Judgement(play, 1e9, 1.0)
    last = play.cards[-1]
    wild = RANK_OF[last] == EIGHT
    suit = play.suit if wild and play.suit is not None else SUIT_OF[last]
    rank = RANK_OF[last]
    fits = fitting(suit, rank)
    table = view.table
    following = (view.seat + table.direction) % table.players
    stop_chance = 1.0 - belief.p_can_follow(following, fits)
    urgency = 1.0 + w.urgency / max(1, table.counts[following])
    expected_draws = (belief.unseen.bit_count() + 1) / ((belief.unseen & fits).bit_count() + 1)
    value = w.stop * urgency * stop_chance * expected_draws
    value += w.control * suit_counts(rest)[suit] - w.unseen * belief.unseen_in_suit(suit)
    value += w.connected * sum(1 for c in rest if _follows(c, suit, rank))
    suits_held = {SUIT_OF[c] for c in rest if not is_wild(c)}
    value += w.flex * (len(suits_held) + 2 * sum(1 for c in rest if is_wild(c)))
    if wild and any(not is_wild(p.cards[-1]) for p in plays):
        value -= w.wild_spent
    if len(rest) == 1:
        value += w.last_card_wild if is_wild(rest[0]) else 0.0
        value += w.last_card_follows if _follows(rest[0], suit, rank) else 0.0
    value += 0.001 * sum(points_table(view)[c] for c in play.cards)  # shed points on a tie
    return Judgement(play, value, stop_chance)


def _follows(card: Card, suit: int, rank: int) -> bool:
    return RANK_OF[card] == EIGHT or SUIT_OF[card] == suit or RANK_OF[card] == rank
