"""Hard's search at tables where only eights are special: determinized Monte Carlo.

For each of a number of deals of the hidden cards that the rules leave possible
(``reading``: draws, passes, reshuffles), each other seat's cards dealt by a habit drawn by
how well it explains that seat's moves (``Dealer``: a weight, never a rule), every candidate
action is played out to the end of the hand by ``playout`` with the same deal for every
candidate, so that the candidates are compared on equal cards. The heuristic's own choice
(``base``) keeps its place unless the candidate that won most beat it, deal for deal, by
more than ``Budget.evidence`` standard errors. The number of playouts is fixed, so the same
view always gets the same answer on any machine and under any load; a wall clock
(``Budget.seconds``) is only a safety limit, far above a search's time, whose hits are
counted (``SearchStats.cut``): past it, the search answers with the deals it has played.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from eights.rules import Action, ActionType, Rules, SeatView
from eights.rules.cards import EIGHT, RANK_OF, SUIT_OF, parse_card, parse_suit

from .belief import EIGHTS, SUIT_MASK, Belief, mask_of
from .medium import UNSEEN_WEIGHT
from .playout import (
    FITS,
    LIGHT_HABIT,
    MEDIUM_HABIT,
    RANDOM_HABIT,
    SAVER_HABIT,
    SimRules,
    playout,
    shuffle,
)
from .reading import HEAVY, LIGHT, SAVER, Told, read_moves

SAFETY_SECONDS = 1.0
"""The wall clock a search may never pass (a machine stalled, a bug): some 50 times a
search's own time, so that it never decides a game."""


@dataclass(frozen=True)
class Budget:
    """How much a decision searches: playouts, and simulated turns in all (a long playout
    costs more than a short one: the turns bound a decision's CPU), both fixed; and a
    safety clock."""

    playouts: int = 2000
    turns: int | None = 32_000
    """Simulated turns (and the dealing, counted in about the same units) after which no new
    deal is played out (None: no bound). Twice the budget of the first searches: once the
    deals followed the others' habits (``Dealer``), more of them paid (duo against Medium
    59.1% → 60.4%, classic at six 17.5% → 18.3%; before, they did not: docs/bots.md);
    Newfoundland and 101 spend less (``budget_with_specials``, ``budget_at_101``)."""
    seconds: float | None = SAFETY_SECONDS
    least: int = 8
    """Deals played out however short the clock."""
    learn: bool = True
    """The others play by the habit their choices show on each deal (``Dealer.habits``)
    in the playouts, rather than all by Medium's."""
    evidence: float = 1.0
    """How many standard errors a candidate must win by, deal for deal, to be chosen over
    the heuristic's own choice (1.0 and 2.0 measured alike; 0 chose worse: docs/bots.md)."""


@dataclass
class SearchStats:
    """What a bot's searches came to: how many, and how many the safety clock cut short."""

    searches: int = 0
    cut: int = 0
    playouts: int = 0
    turns: int = 0


def candidates(view: SeatView, legal: Sequence[Action], base: Action) -> list[Action]:
    """The actions worth comparing: each play (one eight for each suit it may name, a suit
    the hand does not hold included: naming the suit the next seat lacks can pay), and
    keeping a drawn card."""
    out: list[Action] = [base]
    eights_seen: set[int | None] = set()
    if base.type is ActionType.PLAY and RANK_OF[base.cards[-1]] == EIGHT:
        eights_seen.add(base.suit)
    for action in legal:
        if action == base:
            continue
        if action.type is ActionType.KEEP:
            out.append(action)
        elif action.type is ActionType.PLAY:
            last = action.cards[-1]
            if RANK_OF[last] == EIGHT:
                if action.suit in eights_seen:
                    continue
                eights_seen.add(action.suit)
            out.append(action)
    return out


class Playouts(Protocol):
    """A simulator set up for one decision: each candidate played out on a deal."""

    @property
    def points(self) -> tuple[int, ...]:
        """Each card's points at this table (the deals are weighed by them)."""
        ...

    def run(
        self,
        index: int,
        hands: list[int],
        stock: list[int],
        rng: random.Random,
        habits: list[int] | None = None,
    ) -> tuple[float, int]:
        """Candidate ``index`` played out on the deal ``hands`` (this seat's empty) and
        ``stock``: its share of the hand won, and the turns it took. ``habits``: the habit
        each seat plays by (``Dealer.habits``; None, or a simulator that knows one habit:
        Medium's)."""
        ...


Candidates = Callable[[SeatView, Sequence[Action], Action], list[Action]]
"""The actions a search compares, the base first."""
Simulator = Callable[[SeatView, list[Action]], Playouts]
"""Sets a table's simulator up for one decision and its candidates."""


class PlainTable:
    """One decision's playouts at a table where only eights are special (``playout``)."""

    def __init__(self, view: SeatView, options: list[Action]) -> None:
        table = view.table
        self.rules = SimRules.of(Rules.for_variant(table.variant, table.players, table.options))
        self.me = view.seat
        self.nxt = (view.seat + table.direction) % table.players
        self.reshuffles = table.reshuffles
        mine = mask_of(view.hand)
        pile = list(table.pile)
        self.starts = [_start(action, mine, pile, table.suit_in_force) for action in options]
        """For each candidate: this seat's hand, the pile, the suit and rank in force after it."""

    @property
    def points(self) -> tuple[int, ...]:
        return self.rules.points

    def run(
        self,
        index: int,
        hands: list[int],
        stock: list[int],
        rng: random.Random,
        habits: list[int] | None = None,
    ) -> tuple[float, int]:
        hand, laid, suit, rank = self.starts[index]
        after = list(hands)
        after[self.me] = hand
        return playout(
            self.rules,
            after,
            list(stock),
            list(laid),
            suit,
            rank,
            self.nxt,
            0,
            self.reshuffles,
            self.me,
            rng,
            habits,
        )


def search(
    view: SeatView,
    legal: Sequence[Action],
    base: Action,
    rng: random.Random,
    budget: Budget,
    stats: SearchStats | None = None,
    choices: Candidates = candidates,
    simulator: Simulator = PlainTable,
    tells: bool = True,
) -> Action:
    """The candidate that wins the most playouts, if it beats ``base`` on evidence; else
    ``base``. ``stats`` counts the search, and whether the safety clock cut it. ``choices``
    and ``simulator``: the table's candidates and simulator (by default those of a table
    where only eights are special); ``tells``: the deals are weighed by the others' habits."""
    options = choices(view, legal, base)
    if len(options) < 2:
        return base
    if stats is not None:
        stats.searches += 1
    start = time.perf_counter()
    sim = simulator(view, options)
    belief, told = read_moves(view, tells)
    deal = Dealer(view, belief, told if tells else None, sim.points)
    best = compare(len(options), deal, sim.run, rng, budget, stats, start, learn=tells)
    return options[best]


Run = Callable[[int, list[int], list[int], random.Random, list[int] | None], tuple[float, int]]
"""Plays candidate ``i`` out on a deal (the other hands, the stock), each other seat by the
habit given (or Medium's): its share, the turns."""


def compare(
    count: int,
    deal: Dealer,
    run: Run,
    rng: random.Random,
    budget: Budget,
    stats: SearchStats | None,
    start: float,
    learn: bool = False,
) -> int:
    """Which of ``count`` candidates to play (0, the base, unless another wins on
    evidence): each is played out by ``run`` on the same deals, drawn by ``deal``, until
    the budget is spent. Shared by every table's search; ``run`` is its simulator.
    ``learn``: the others play the habit their choices show (``Dealer.habits``), where the
    budget allows it."""
    rounds = max(budget.least, budget.playouts // count)
    gain = [0.0] * count
    """Each candidate's playouts won, less those the base won on the same deals."""
    square = [0.0] * count
    deals = 0
    turns = 0
    for done in range(rounds):
        if done >= budget.least and budget.turns is not None and turns + deal.work >= budget.turns:
            break
        if (
            budget.seconds is not None
            and done >= budget.least
            and time.perf_counter() - start > budget.seconds
        ):
            if stats is not None:
                stats.cut += 1
            break
        hands, stock = deal.sample(rng)
        habits = deal.habits() if budget.learn and learn else None
        won = [0.0] * count
        for i in range(count):
            won[i], took = run(i, hands, stock, rng, habits)
            turns += took
        for i in range(1, count):
            d = won[i] - won[0]
            gain[i] += d
            square[i] += d * d
        deals += 1
    if stats is not None:
        stats.playouts += deals * count
        stats.turns += turns
    best = max(range(count), key=lambda i: gain[i])
    if best == 0 or gain[best] <= 0:
        return 0
    # Leave the base only on evidence: the paired difference above that many standard errors.
    mean = gain[best] / deals
    variance = max(square[best] / deals - mean * mean, 1e-9)
    if mean * deals**0.5 > budget.evidence * variance**0.5:
        return best
    return 0


def _start(
    action: Action, hand: int, pile: list[int], in_force: int
) -> tuple[int, list[int], int, int]:
    """Where a playout starts after ``action``: this seat's hand, the pile (top last), and the
    suit and rank in force (keeping a drawn card leaves the table as it is)."""
    if action.type is not ActionType.PLAY:
        return hand, pile, in_force, RANK_OF[pile[-1]]
    card = action.cards[-1]
    suit = action.suit if action.suit is not None else SUIT_OF[card]
    return hand & ~(1 << card), [*pile, card], suit, RANK_OF[card]


class Dealer:
    """Deals the cards this seat has not seen to the other hands and the stock, each card
    of another hand drawn from those the rules leave possible for it (``reading``) and,
    for a seat read as keeping a habit, from those that habit leaves possible: each seat's
    habit is drawn for each deal by how well it explains that seat's moves (``posterior``).

    Proposing deals from the rules alone and keeping those the habits explain failed at
    many seats: at classic with six, 54% of deals ran out of proposals (at duo 5%)."""

    def __init__(
        self,
        view: SeatView,
        belief: Belief,
        told: Told | None = None,
        points: tuple[int, ...] = (),
        tells: bool = True,
    ) -> None:
        """``tells``: read the others' recent choices by the habits of the tables where only
        eights are special (off at 101, whose moves those habits do not describe)."""
        table = view.table
        self.players = table.players
        self.unseen = [c for c in range(52) if belief.unseen >> c & 1]
        marks = told.marks if told is not None else {}
        slots: list[tuple[int, int, int, int, int]] = []
        for seat in range(table.players):
            if seat == view.seat:
                continue
            exclusions = list(belief.slots.get(seat, ()))[: table.counts[seat]]
            exclusions += [0] * (table.counts[seat] - len(exclusions))
            seat_marks = marks.get(seat, [])
            for i, excluded in enumerate(exclusions):
                marked = seat_marks[i] if i < len(seat_marks) else [0, 0, 0]
                slots.append((seat, excluded, marked[HEAVY], marked[LIGHT], marked[SAVER]))
        slots.sort(key=lambda slot: -(slot[1] | slot[2]).bit_count())
        self.slots = slots
        self.tells = recent_choices(view) if tells and told is not None else []
        """The others' choices since their last draws (none read without ``told``)."""
        self.points = points or tuple(RANK_OF[c] + 2 for c in range(52))
        n = self.players
        chosen = told.choices if told is not None else {}
        plain = told.plain if told is not None else {}
        free = told.free_draws if told is not None else {}
        self.broken = [[0, 0, 0] for _ in range(n)]
        """For each seat, the cards it laid that each habit said it did not hold."""
        if told is not None:
            for seat, counts in told.broken.items():
                self.broken[seat] = list(counts)
        self.chance = [RANDOM_CHOICE ** (chosen.get(s, 0) + free.get(s, 0)) for s in range(n)]
        """For each seat, how likely a random player makes the moves it made this hand (its
        choices of a card, and its draws while a card may have fitted)."""
        self.saver = [RANDOM_CHOICE ** plain.get(seat, 0) for seat in range(n)]
        """For each seat, how likely a player who saves eights and lays any other card at
        random makes the choices of other cards it made this hand."""
        self.chosen = [chosen.get(seat, 0) for seat in range(n)]
        """For each seat, how many cards it chose this hand."""
        self.read = [False] * n
        """The seats whose moves a habit may read (marks on their slots, or choices)."""
        for seat, _, h, lt, sv in slots:
            if h | lt | sv:
                self.read[seat] = True
        for tell in self.tells:
            self.read[tell.seat] = True
        for seat in range(n):
            if any(self.broken[seat]):
                self.read[seat] = True
        self.posterior: list[list[float]] = []
        """For each seat, how likely each habit is (``PRIOR``'s order) given its moves:
        estimated on the first deal (``estimate``)."""
        self.work = 0
        """What the deals so far cost, in about the units of a simulated turn."""

    def estimate(self, rng: random.Random) -> None:
        """Each seat's habits weighed by how well they explain its moves: its prior share
        times the mean, over ``ESTIMATE`` deals from what the rules alone leave possible,
        of ``SOFT`` to the power of the moves it does not explain (a random player's: the
        chance of its moves). A habit the seat broke (it laid a card the habit said it did
        not hold: ``Told.broken``) weighs nothing: against the sparring bot, which breaks
        Medium's in half of Hard's decisions, Medium's habit kept 51% of its weight when a
        break only cost ``SOFT``."""
        n = self.players
        sums = [[0.0, 0.0, 0.0] for _ in range(n)]
        rules_only = [RANDOM_HABIT] * n
        if any(self.read):
            for _ in range(ESTIMATE):
                hands, _, held = self.deal(rng, rules_only)
                missed = self.missed(hands, held)
                for seat in range(n):
                    if self.read[seat]:
                        for habit in range(3):
                            sums[seat][habit] += SOFT ** missed[seat][habit]
            self.work += ESTIMATE * (len(self.slots) + 3 * len(self.tells))
        self.posterior = []
        for seat in range(n):
            fit = [x / ESTIMATE for x in sums[seat]] if self.read[seat] else [1.0, 1.0, 1.0]
            for habit in range(3):
                if self.broken[seat][habit]:
                    fit[habit] = 0.0  # a card laid that the habit said it did not hold
            likely = [
                PRIOR[0] * fit[0],
                PRIOR[1] * fit[1],
                PRIOR[2] * self.saver[seat] * fit[2],
                PRIOR[3] * self.chance[seat],
            ]
            total = likely[0] + likely[1] + likely[2] + likely[3]
            self.posterior.append([x / total for x in likely])

    def sample(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """One deal: a mask for each hand (this seat's empty) and the stock (top last). Each
        seat's habit is drawn from ``posterior``, its cards from those the rules and that
        habit leave possible; a deal the habit still does not explain (its recent choices,
        or cards left for no other slot) is kept with the chance of its weight, and after
        ``TRIES`` proposals one of them is drawn by weight."""
        if not self.posterior:
            self.estimate(rng)
        n = self.players
        tried = 0
        proposals: list[tuple[float, list[int], list[int], list[int]]] = []
        total = 0.0
        hands: list[int] = []
        rest: list[int] = []
        habits = [RANDOM_HABIT] * n
        while tried < TRIES:
            tried += 1
            habits = [RANDOM_HABIT] * n
            for seat in range(n):
                if self.read[seat]:
                    habits[seat] = _draw(self.posterior[seat], rng.random())
            hands, rest, held = self.deal(rng, habits)
            missed = self.missed(hands, held)
            w = 1.0
            for seat in range(n):
                if habits[seat] != RANDOM_HABIT:
                    w *= SOFT ** missed[seat][habits[seat]]
            if rng.random() < w:
                break
            proposals.append((w, hands, rest, habits))
            total += w
        else:
            pick = rng.random() * total
            chosen = len(proposals) - 1
            for i, proposal in enumerate(proposals):
                pick -= proposal[0]
                if pick <= 0.0:
                    chosen = i
                    break
            hands, rest, habits = proposals[chosen][1], proposals[chosen][2], proposals[chosen][3]
        shuffle(rest, rng.random)
        self.work += tried * (len(self.slots) + 3 * len(self.tells)) + len(rest)
        return hands, rest

    def missed(self, hands: list[int], held: list[int]) -> list[list[int]]:
        """For each seat, how many of its moves each habit (Medium's, the lightest first,
        eights saved) does not explain on this deal. ``held``: the card dealt to each slot
        (parallel to ``slots``; -1 for none): a slot's marks are read against its own card,
        not the whole hand, for a card drawn after a choice was not in the hand it was
        chosen from (read against the hand, a Medium's real hand weighed under 0.01 in 15%
        of Hard's decisions at duo)."""
        out = [[0, 0, 0] for _ in range(self.players)]
        for i, (seat, _, h, lt, sv) in enumerate(self.slots):
            card = held[i]
            if card < 0:
                continue
            if h >> card & 1:
                out[seat][0] += 1
            if lt >> card & 1:
                out[seat][1] += 1
            if sv >> card & 1:
                out[seat][2] += 1
        for tell in self.tells:
            hand = hands[tell.seat]
            if not tell.explained_by(hand):
                out[tell.seat][0] += 1
            if not tell.lowest_first(hand, self.points):
                out[tell.seat][1] += 1
        return out

    def habits(self) -> list[int]:
        """For each seat, the habit it plays by in the playouts: the likeliest (``posterior``;
        Medium's before a seat has chosen anything, and on a tie). The likeliest rather than
        the one drawn for the deal: drawn, a Medium seat early in a hand plays another habit
        one time in three (duo against Medium 57.9% against 58.4%, against the sparring bot
        53.5% against 54.5%)."""
        out = [MEDIUM_HABIT] * self.players
        for seat in range(self.players):
            if not self.chosen[seat] or not self.posterior:
                continue
            likely = self.posterior[seat]
            best = likely[0]
            for habit in range(1, 4):
                if likely[habit] > best:
                    best = likely[habit]
                    out[seat] = habit
        return out

    def deal(self, rng: random.Random, habits: list[int]) -> tuple[list[int], list[int], list[int]]:
        """The other hands, each card drawn at random from those its slot may hold (by the
        rules, and by the habit ``habits`` gives its seat); the cards left (in no particular
        order); and the card dealt to each slot (-1: none)."""
        pool = list(self.unseen)
        hands = [0] * self.players
        held = [-1] * len(self.slots)
        random_ = rng.random
        for slot, (seat, excluded, h, lt, sv) in enumerate(self.slots):
            size = len(pool)
            if not size:
                break
            habit = habits[seat]
            if habit == MEDIUM_HABIT:
                excluded |= h
            elif habit == LIGHT_HABIT:
                excluded |= lt
            elif habit == SAVER_HABIT:
                excluded |= sv
            index = int(random_() * size)
            if excluded >> pool[index] & 1:
                allowed = [i for i, card in enumerate(pool) if not excluded >> card & 1]
                if allowed:
                    index = allowed[int(random_() * len(allowed))]
            hands[seat] |= 1 << pool[index]
            held[slot] = pool[index]
            pool[index] = pool[-1]
            pool.pop()
        return hands, pool, held


def _draw(shares: list[float], u: float) -> int:
    """The index ``u`` (in [0, 1)) falls on, ``shares`` summing to 1."""
    for i in range(len(shares) - 1):
        u -= shares[i]
        if u < 0.0:
            return i
    return len(shares) - 1


TRIES: Final = 8
"""Deals proposed before one is drawn by weight however little it explains."""
ESTIMATE: Final = 32
"""Deals from the rules alone on which each seat's habits are weighed (``Dealer.estimate``)."""
SOFT: Final = 0.03
"""How much less likely a deal is for each choice of another seat that the habit it is
read by does not explain (a player keeping a habit leaves it now and then)."""
RANDOM_CHOICE: Final = 0.4
"""The chance that a random player lays the card it laid (about one of two or three)."""
PRIOR: Final = (0.5, 0.1, 0.25, 0.15)
"""How likely a seat is, before it has chosen anything, to keep each habit: Medium's (its
strongest suit, the heaviest card of it), the lightest card first, eights saved and any
other card, and none (a random card)."""


@dataclass(frozen=True)
class Choice:
    """A play another seat chose from its hand (not a card it had to lay after drawing),
    with no draw of its own since: its hand then was its hand now and the cards it has laid
    since, this one included (``own``)."""

    seat: int
    card: int
    named: int | None
    fits: int
    """What fitted the pile then (eights included)."""
    own: int
    """Its cards laid from this play on."""
    off_pile: tuple[int, ...]
    """For each suit, the cards of it (eights left out) that were off the pile then."""

    def explained_by(self, hand: int) -> bool:
        """Whether a player who saves eights and plays its strongest suit (held, less
        ``UNSEEN_WEIGHT`` times the cards of it neither held nor on the pile) would have
        laid this card from ``hand`` as it was then."""
        before = hand | self.own
        ordinary = before & self.fits & ~EIGHTS
        if RANK_OF[self.card] == EIGHT:
            if ordinary:
                return False
            rest = before & ~(1 << self.card)
            return self.named is None or not rest & ~EIGHTS or bool(rest & SUIT_MASK[self.named])
        held = [(before & SUIT_MASK[s]).bit_count() for s in range(4)]
        off = self.off_pile

        def strength(s: int) -> float:
            return held[s] - 1 - UNSEEN_WEIGHT * (off[s] - held[s])

        best = max(strength(s) for s in range(4) if ordinary & SUIT_MASK[s])
        return strength(SUIT_OF[self.card]) >= best - 1e-9

    def lowest_first(self, hand: int, points: tuple[int, ...]) -> bool:
        """Whether a player who lays its lightest fitting card (an eight last) would have
        laid this card from ``hand`` as it was then."""
        ordinary = (hand | self.own) & self.fits & ~EIGHTS
        if RANK_OF[self.card] == EIGHT:
            return not ordinary
        mine = points[self.card]
        while ordinary:
            low = ordinary & -ordinary
            if points[low.bit_length() - 1] < mine:
                return False
            ordinary ^= low
        return True


def recent_choices(view: SeatView) -> list[Choice]:
    """Every play of each other seat since it last drew that was a choice."""
    table = view.table
    on_pile_now = mask_of(table.pile)
    top_suit, top_rank = 0, 0
    made: list[tuple[int, int, int | None, int, int]] = []
    """(seat, card, named, fits, index of the event)"""
    drew_this_turn: set[int] = set()
    plays: list[tuple[int, int, int]] = []
    """(index, seat, card) of every card laid, in order."""
    for index, event in enumerate(table.log):
        kind = event["type"]
        if kind == "opened":
            card = parse_card(event["card"])
            top_suit = parse_suit(event["suit"]) if event["suit"] else SUIT_OF[card]
            top_rank = RANK_OF[card]
        elif kind == "played":
            seat = event["seat"]
            cards = [parse_card(c) for c in event["cards"]]
            named = parse_suit(event["suit"]) if event["suit"] is not None else None
            if seat != view.seat and len(cards) == 1 and seat not in drew_this_turn:
                made.append((seat, cards[0], named, FITS[top_suit][top_rank], index))
            plays.extend((index, seat, c) for c in cards)
            drew_this_turn.clear()
            top_suit = named if named is not None else SUIT_OF[cards[-1]]
            top_rank = RANK_OF[cards[-1]]
        elif kind in ("drew", "took"):
            seat = event["seat"]
            made = [m for m in made if m[0] != seat]
            drew_this_turn.add(seat)
        elif kind == "ordered":  # 101: the dealer ordered a suit for its opening jack
            top_suit = parse_suit(event["suit"])
            drew_this_turn.clear()
        elif kind in ("kept", "turn_ended", "passed"):
            drew_this_turn.clear()
        elif kind == "reshuffled":
            made = []  # the pile it saw is in the stock now
    out = []
    for seat, card, named, fits, index in made:
        own = 0
        since = 0
        for at, by, laid in plays:
            if at >= index:
                since |= 1 << laid
                if by == seat:
                    own |= 1 << laid
        off_pile = tuple((SUIT_MASK[s] & (~on_pile_now | since)).bit_count() for s in range(4))
        out.append(Choice(seat, card, named, fits, own, off_pile))
    return out
