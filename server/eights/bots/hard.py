"""Hard: Medium's sense of suits with its connected cards kept, plus what the log gives away
about the next seat and an eye on a seat close to finishing.

It starts from the play Medium would choose, except that between plays of equal suit
strength it lays the card whose rank has the fewest cards unseen, keeping the ranks that
can still link its hand to another suit. It leaves that play for another when the other is
expected to make the next seat draw more cards: from the cards it has not seen, less those
the log shows that seat cannot hold (``reading``), weighted more the fewer cards that seat
has left, and net of the cost of spending an eight. A play that goes out is always played.

Where only eights are special, that judgement is then checked by a search (``search.py``):
determinized Monte Carlo over a fast simulator of the hand, which may overrule it on evidence.

Where special cards are in play (Newfoundland's twos, jacks, queens and kings), ``weigh``
judges instead: the same start, with pickups, skips and reversals weighed against the seat
that is close to going out (``weigh.py``); that judgement is checked by the same search
over a simulator of the specials (``special_search.py``, ``special_playout.py``), whose
candidates include the answers to a pickup and taking it. At the 101 table
``hundred_choice.py`` judges (its Hard judgement) and ``hundred_search.py`` checks its best
few plays by the same search over a simulator of a 101 round (``hundred_playout.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from eights.rules import Action, ActionType, SeatView
from eights.rules.cards import RANK_OF, SUIT_OF

from .belief import Belief, fitting
from .effects import Effects
from .hundred_search import budget_at_101, hundred_search
from .hundred_table import is_101
from .interface import decision_rng
from .medium import medium_choice
from .reading import read_moves
from .search import Budget, SearchStats, search
from .special_search import special_search
from .tactics import is_wild, plays_of
from .weigh import names_a_held_suit, weigh


@dataclass(frozen=True)
class Hard:
    seed: str = "hard"
    threshold: float = 0.3
    """Expected extra cards the next seat must draw that make Hard leave its connected play."""
    urgency: float = 3.0
    """Stopping a seat with n cards counts 1 + urgency / n times."""
    wild_cost: float = 3.0
    """What spending an eight costs, in cards the next seat would have to draw."""
    two_cost: float = 5.0
    """Where twos pick up: what spending a two (an answer to a pickup) costs, in cards."""
    answer_back: float = 0.2
    """At two players, answering a pickup of twos while holding several: the chance that the
    other seat holds a two above which Hard lays one and keeps the rest to answer again."""
    pickup_weight: float = 1.0
    """How much the cards and turn a pickup costs the next seat count."""
    skip_weight: float = 1.0
    """What a jack's skipped turn costs the next seat, in cards."""
    reverse_weight: float = 1.0
    """How much turning the play away from the next seat to the one before counts."""
    bystander: float = 0.3
    """At three or more: how much stopping a seat counts that is neither the closest to going
    out nor down to two cards (stopping it helps the other seats as much as Hard)."""
    out_weight: float = 20.0
    """Where specials are in play: what letting a seat with one card go out costs, in cards."""
    budget: Budget | None = field(default_factory=Budget)
    """How much it searches (``search.py``; except at 101); None: it does not, and plays
    its judgement alone."""
    stats: SearchStats = field(default_factory=SearchStats, compare=False, repr=False)
    """Its searches so far, and those the safety clock cut short."""

    def __call__(self, view: SeatView, legal: Sequence[Action]) -> Action:
        return press(view, legal, self)

    @property
    def timeouts(self) -> int:
        """Searches the safety clock cut short (a tournament reports them)."""
        return self.stats.cut


def pressure(view: SeatView, belief: Belief, play: Action, hard: Hard) -> float:
    """Cards the next seat is expected to draw after ``play`` because it cannot follow."""
    table = view.table
    following = (view.seat + table.direction) % table.players
    last = play.cards[-1]
    suit = play.suit if play.suit is not None else SUIT_OF[last]
    fits = fitting(suit, RANK_OF[last])
    stop_chance = 1.0 - belief.p_can_follow(following, fits)
    draws = (belief.unseen.bit_count() + 1) / ((belief.unseen & fits).bit_count() + 1)
    urgency = 1.0 + hard.urgency / max(1, table.counts[following])
    return urgency * stop_chance * draws


def press(view: SeatView, legal: Sequence[Action], hard: Hard) -> Action:
    """Hard's choice for ``view`` among ``legal``."""
    if is_101(view):
        rng = decision_rng(hard.seed, view)
        return hundred_search(view, legal, rng, budget_at_101(hard.budget), hard.stats)
    effects = Effects.of(view)
    if effects.any:
        choice = weigh(view, legal, hard, effects)
        if hard.budget is None or goes_out(view, choice):
            return choice
        rng = decision_rng(hard.seed, view)
        return special_search(view, legal, choice, rng, hard.budget, hard.stats)
    choice = heuristic(view, legal, hard)
    if hard.budget is None or goes_out(view, choice):
        return choice
    return search(view, legal, choice, decision_rng(hard.seed, view), hard.budget, hard.stats)


def goes_out(view: SeatView, action: Action) -> bool:
    """The action lays the whole hand."""
    return action.type is ActionType.PLAY and len(action.cards) == len(view.hand)


def heuristic(view: SeatView, legal: Sequence[Action], hard: Hard) -> Action:
    """Hard's judgement without search, where only eights are special."""
    base = medium_choice(view, legal, connected=True)
    plays = plays_of(legal)
    if base.type is not ActionType.PLAY or len(plays) < 2:
        return base
    going_out = next((p for p in plays if len(p.cards) == len(view.hand)), None)
    if going_out is not None:
        return going_out
    belief, _ = read_moves(view, tells=False)
    base_wild = is_wild(base.cards[-1])

    def gain(play: Action) -> float:
        spent = hard.wild_cost if is_wild(play.cards[-1]) and not base_wild else 0.0
        return pressure(view, belief, play, hard) - spent

    best = max((p for p in plays if names_a_held_suit(view, p)), key=gain, default=base)
    return best if gain(best) - gain(base) > hard.threshold else base
