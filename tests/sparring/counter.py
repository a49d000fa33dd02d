"""A card-counting Crazy Eights player, written from the rule texts only (a second sparring bot).

What it reads: its own hand, the whole discard pile (every card on it is seen, so the unseen
cards are the deck less the hand and the pile) and the hand's public log. From the log it
keeps, for each other seat, what that seat has shown it could not follow: a seat that passed,
or drew where nobody may draw holding a card that fits (a voluntary draw, at classic and
Ember Ridge, counts for less; at 101, where anybody may draw, only a pass does), holds no card
of the suit in force, none of the top card's rank and no wild card. Cards a seat takes in
later (draws that did not fit what it lacked, pickups, penalties, a card kept) slowly give it
back a chance of holding them. A wild card laid (no pickup waiting) counts as half a shown
void of what was in force; the cards a reshuffle puts back into the stock are held by nobody
until that seat draws. Each unseen card gets a chance of being in that seat's hand
(its count spread over the unseen cards, cards of a shown void weighted down to the cards
taken in since), so "the next seat cannot answer" is the product of one minus those chances
over the unseen cards that would fit.

How it chooses: every legal action gets a score and the best one is played (ties by card
order). A play scores for emptying the hand (always taken), for the chance that the next seat
is stuck (more the fewer cards it holds), for the cards of the new suit this hand keeps to
follow on with, and for special cards where a table has them (pickups, skips, 101's sevens,
eights, aces and covering sixes); it pays for spending a wild card while anything else fits,
and, at a table that counts points, it sheds high cards when somebody is close to going out
(at 101, where the lowest total wins, it always leans that way). A wild card names the suit
this hand holds most of and the next seat most probably lacks; a 101 dealer's opening jack
orders the same way. Drawing is only for when nothing can be laid; a card drawn that fits is
played (keeping it scores below any play); a pickup is answered, with as many cards as may
answer it, rather than taken; a 101 bridge is declared when this hand counts less than each
other seat's expected hand.

What I measured (``eights tournament --games N --seed sp2``, the bot in the first seat; duo
is one hand a game): at duo 72% of 1,000 games against Easy, 51% against Medium (53% of
2,000 with seed sp3), 42% against Hard and 47% against heuristic.py; over whole games 56%
against Medium at newfoundland (400 games), 58% at 101 (500) and 55% at classic (400). In
tuning runs (2,000 duo games against Medium, same deals) only the chance of a stuck next seat
moved the needle: without it 45.6%, and with neither it nor the cards kept to follow on with,
42.5%. Its weight (1.5 to 6), how much more it counts as the next seat's hand shrinks, the
most cards a stuck seat is counted to draw, the cost of a wild card (2.5 to 30), reading a
laid wild card as a void, and a penalty for what the next seat could lay back that this hand
cannot answer (tried and dropped: it never helped): each within a point of 50%. Counting the
cards shuffled back into the stock as held by nobody: +1 (within the noise).

``play(view, legal)`` is a pure function of the view: no randomness, no module state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from eights.rules import Action, ActionType, SeatView
from eights.rules.cards import DECKS, RANK_CHARS, RANK_OF, SUIT_CHARS, SUIT_OF, parse_card

W: Mapping[str, float] = {
    "stuck": 3.0,  # the next seat has nothing that fits
    "follow": 0.35,  # each card of the new suit kept (up to three)
    "wild": 2.5,  # spending a wild card while something else fits
    "shed": 1.0,  # points laid when somebody is close to going out, per 10 points
    "wild_near": 0.4,  # the share of that when somebody is about to go out, or this hand
    "wild_hint": 0.5,  # how much a wild card laid says about a void
    "voluntary": 0.6,  # how much a voluntary draw says about a void
    "keep": -1.0,  # keeping a drawn card instead of playing it
    "urgency": 3.0,  # how much more the next seat's being stuck counts, over its cards
    "follow_cap": 3.0,  # the most cards of the new suit counted
    "most_draws": 6.0,  # the most cards a stuck seat is counted to draw
}

Void = dict[str, int]
"""Per seat: ``"s0".."s3"`` (a suit), ``"r0".."r12"`` (a rank), ``"w"`` (the wild rank),
``"c0".."c51"`` (one card, shuffled back into the stock): cards it took in since it showed
(or the log showed) it had none of them."""


class Reader:
    """What the log says: per seat, the suits, ranks and wild cards it has shown it lacks."""

    def __init__(self, view: SeatView) -> None:
        t = view.table
        opts: Mapping[str, Any] = t.options
        self.me = view.seat
        self.players = t.players
        self.wild = RANK_CHARS.index(str(opts.get("wild_rank", "8")))
        self.deck: tuple[int, ...] = DECKS.get(str(opts.get("deck", "52")), DECKS["52"])
        self.hand = list(view.hand)
        self.counts = list(t.counts)
        self.stock = t.stock_size
        self.void: list[Void] = [{} for _ in range(self.players)]
        self.trust: list[dict[str, float]] = [{} for _ in range(self.players)]
        free_draws = opts.get("draw_rule") == "up_to_max"
        voluntary = bool(opts.get("draw_with_legal", False))
        self.draw_trust = 0.0 if free_draws else (W["voluntary"] if voluntary else 1.0)
        self._read(t.log, t.pile)
        seen = set(self.hand) | set(t.pile)
        self.unseen = [c for c in self.deck if c not in seen]

    def _keys(self, top: int | None, named: int | None) -> list[str]:
        """The categories of cards that would fit on ``top`` with ``named`` in force."""
        if top is None:
            return []
        keys = ["w"]
        if named is not None:
            keys.append(f"s{named}")
        else:
            keys.append(f"s{SUIT_OF[top]}")
            if RANK_OF[top] != self.wild:
                keys.append(f"r{RANK_OF[top]}")
        return keys

    def _lacks(self, seat: int, keys: list[str], trust: float) -> None:
        if seat == self.me or not 0 <= seat < self.players or trust <= 0:
            return
        for k in keys:
            self.void[seat][k] = 0
            self.trust[seat][k] = max(trust, self.trust[seat].get(k, 0.0))

    def _took(self, seat: int, n: int, spare: list[str] | None = None) -> None:
        """``seat`` took in ``n`` unknown cards (none of the categories in ``spare``)."""
        if seat == self.me or not 0 <= seat < self.players or n <= 0:
            return
        for k in self.void[seat]:
            if spare is None or k not in spare:
                self.void[seat][k] += n

    def _read(self, log: Sequence[Mapping[str, Any]], pile: Sequence[int]) -> None:
        top: int | None = pile[-1] if pile else None
        named: int | None = None
        drawing: int | None = None
        pending = False
        table: list[int] = []  # the pile as the log built it
        for e in log:
            kind = e.get("type")
            seat = e.get("seat")
            s = seat if isinstance(seat, int) else -1
            if kind != "drew":
                drawing = None
            if kind in ("opened", "played"):
                cards = [parse_card(c) for c in (e.get("cards") or [e.get("card")])]
                table = table + cards if kind == "played" else cards
                if kind == "played" and RANK_OF[cards[0]] == self.wild and not pending:
                    # A wild card laid: its seat most likely had nothing else that fitted.
                    keys = [k for k in self._keys(top, named) if k != "w"]
                    self._lacks(s, keys, W["wild_hint"])
                pending = False
                top = cards[-1]
                raw = e.get("suit")
                named = SUIT_CHARS.index(raw) if isinstance(raw, str) else None
            elif kind == "ordered":
                raw = e.get("suit")
                named = SUIT_CHARS.index(raw) if isinstance(raw, str) else named
            elif kind == "drew":
                keys = self._keys(top, named)
                if drawing != s:
                    self._lacks(s, keys, self.draw_trust)
                # A card drawn that did not fit is none of what the seat lacks now; the one
                # that fits is played at once (or kept: see "kept").
                self._took(s, 1, keys if self.draw_trust > 0 else None)
                drawing = s
            elif kind == "kept":
                self._took(s, 1)
            elif kind == "passed":
                self._lacks(s, self._keys(top, named), 1.0)
            elif kind == "pickup":
                pending = True
            elif kind in ("took", "penalty"):
                pending = False
                self._took(s, int(e.get("taken", e.get("count", 0)) or 0))
            elif kind in ("reshuffled", "bank_renewed"):
                # The pile under its top went back into the stock: nobody holds those cards.
                back = [f"c{c}" for c in table[:-1]]
                for other in range(self.players):
                    self._lacks(other, back, 1.0)
                table = table[-1:]

    def probabilities(self, seat: int) -> dict[int, float]:
        """Per unseen card, the chance that ``seat`` holds it."""
        held = self.counts[seat] if 0 <= seat < self.players else 0
        if seat == self.me or held <= 0 or not self.unseen:
            return {}
        weights = {c: self._weight(seat, c, held) for c in self.unseen}
        total = sum(weights.values()) or 1.0
        return {c: min(0.95, w * held / total) for c, w in weights.items()}

    def chance(self, seat: int, cards: Sequence[int]) -> float:
        """The chance that ``seat`` holds at least one of ``cards`` (all unseen)."""
        probs = self.probabilities(seat)
        none = 1.0
        for c in cards:
            none *= 1.0 - probs.get(c, 0.0)
        return 1.0 - none

    def _weight(self, seat: int, card: int, held: int) -> float:
        void = self.void[seat]
        if not void:
            return 1.0
        rank = RANK_OF[card]
        keys = ["w"] if rank == self.wild else [f"s{SUIT_OF[card]}", f"r{rank}"]
        keys.append(f"c{card}")
        w = 1.0
        for k in keys:
            if k in void:
                fresh = min(1.0, void[k] / max(held, 1))
                trust = self.trust[seat].get(k, 1.0)
                w = min(w, (1.0 - trust) + trust * fresh)
        return w


class Chooser:
    """Scores each legal action for one decision."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        t = view.table
        self.t = t
        self.opts: Mapping[str, Any] = t.options
        self.r = Reader(view)
        self.me = view.seat
        self.wild = self.r.wild
        self.hand = list(view.hand)
        self.out = set(t.out)
        self.lowest_wins = self.opts.get("game_winner") == "lowest"
        self.scoring = self.opts.get("win_points") != "one"
        others = [t.counts[s] for s in range(t.players) if s != self.me and s not in self.out] or [
            99
        ]
        self.closest = min(others)
        self._probs: dict[int, dict[int, float]] = {}

    # -- the table -------------------------------------------------------------------------

    def seat_after(self, seat: int, step: int) -> int:
        n = self.t.players
        s = seat
        for _ in range(n):
            s = (s + step) % n
            if s not in self.out:
                return s
        return seat

    def points(self, card: int) -> int:
        table: Mapping[str, int] = self.opts.get("points", {}) or {}
        code = RANK_CHARS[RANK_OF[card]] + SUIT_CHARS[SUIT_OF[card]]
        if code in table:
            return int(table[code])
        rank = RANK_CHARS[RANK_OF[card]]
        if rank in table:
            return int(table[rank])
        return RANK_OF[card] + 2 if RANK_OF[card] <= 7 else 10

    def fitting(self, suit: int, rank: int | None) -> list[int]:
        """The unseen cards that would go on a top of ``rank`` with ``suit`` in force."""
        return [
            c
            for c in self.r.unseen
            if RANK_OF[c] == self.wild
            or SUIT_OF[c] == suit
            or (rank is not None and RANK_OF[c] == rank)
        ]

    # -- scores ----------------------------------------------------------------------------

    def score(self, action: Action) -> float:
        kind = action.type
        if kind is ActionType.PLAY:
            return self.score_play(action)
        if kind is ActionType.BRIDGE:
            return self.score_bridge()
        if kind is ActionType.ORDER:
            suit = action.suit if action.suit is not None else 0
            return self.suit_value(suit, None, self.hand) + 0.05
        if kind is ActionType.PASS:
            if self.t.opening and self.t.pile:  # the dealer leaves its opening card alone
                top = self.t.pile[-1]
                return self.suit_value(self.t.suit_in_force, RANK_OF[top], self.hand)
            return -50.0
        if kind is ActionType.KEEP:
            return W["keep"]
        if kind is ActionType.TAKE:
            pending = self.t.pending or {}
            return -2.0 - 0.5 * float(pending.get("count", 2))
        if kind is ActionType.DRAW:
            return -20.0
        return -100.0

    def suit_value(self, suit: int, rank: int | None, rest: Sequence[int]) -> float:
        """What leaving ``suit`` in force (on a top of ``rank``) is worth to this hand: the
        chance the next seat is stuck and how long it would draw then, and the cards this hand
        keeps to follow on with."""
        nxt = self.seat_after(self.me, self.t.direction or 1)
        if nxt == self.me:
            return 0.0
        held = self.r.counts[nxt]
        fit = self.fitting(suit, rank)
        probs = self.probs(nxt)
        stuck = 1.0
        for c in fit:
            stuck *= 1.0 - probs.get(c, 0.0)
        urgency = 1.0 + W["urgency"] / max(1, held)
        value = W["stuck"] * stuck * urgency * 0.5 * self.draws_if_stuck(len(fit), nxt)
        follow = sum(1 for c in rest if SUIT_OF[c] == suit and RANK_OF[c] != self.wild)
        return value + W["follow"] * min(follow, W["follow_cap"])

    def probs(self, seat: int) -> dict[int, float]:
        got = self._probs.get(seat)
        if got is None:
            got = self._probs[seat] = self.r.probabilities(seat)
        return got

    def draws_if_stuck(self, fitting: int, stuck: int = -1) -> float:
        """How many cards a stuck seat draws, about, when every fitting unseen card is in the
        stock (1 where a seat draws one card, or as it likes before a move)."""
        if self.opts.get("draw_rule", "until_fits") != "until_fits":
            return 1.0
        stock = max(self.t.stock_size, 1)
        elsewhere = sum(
            self.r.counts[s]
            for s in range(self.t.players)
            if s not in (self.me, stuck) and s not in self.out
        )
        in_stock = fitting * stock / max(stock + elsewhere, 1)
        return min((stock + 1) / (in_stock + 1), W["most_draws"])

    def score_play(self, action: Action) -> float:
        cards = action.cards
        laid = set(cards)
        rest = [c for c in self.hand if c not in laid]
        last = cards[-1]
        cover = self.opts.get("cover_rank")
        covers = isinstance(cover, str) and RANK_CHARS[RANK_OF[last]] == cover
        if not rest and not covers:
            return 1000.0 + len(cards)
        wild_last = RANK_OF[last] == self.wild
        suit = action.suit if action.suit is not None and wild_last else SUIT_OF[last]
        rank = None if wild_last else RANK_OF[last]
        score = 1.0 * len(cards)
        if covers:
            # 101's six: this hand lays again on it, at once.
            fits = [
                c
                for c in rest
                if RANK_OF[c] == self.wild or SUIT_OF[c] == suit or RANK_OF[c] == rank
            ]
            score += 0.8 if fits else -2.0
        else:
            score += self.suit_value(suit, rank, rest)
        # Wild cards are kept for need.
        n_wild = sum(1 for c in cards if RANK_OF[c] == self.wild)
        if n_wild:
            need = W["wild_near"] if self.closest <= 1 or len(rest) <= 1 else 1.0
            if self.view.drawn is not None:
                need = 0.1
            score -= W["wild"] * n_wild * need
        score += self.effects(action, rest)
        score += self.shed(cards)
        return score

    def shed(self, cards: Sequence[int]) -> float:
        """Points laid, worth more when somebody is close to going out."""
        if not self.scoring:
            return 0.0
        near = {1: 1.0, 2: 0.6, 3: 0.3}.get(self.closest, 0.1)
        if self.lowest_wins:
            near = max(near, 0.3)
        pts = sum(self.points(c) for c in cards if RANK_OF[c] != self.wild)
        return W["shed"] * near * pts / 10.0

    def effects(self, action: Action, rest: Sequence[int]) -> float:
        """Special cards: Newfoundland's pickups and skips, 101's draws, skips and covers."""
        opts = self.opts
        cards = action.cards
        last = cards[-1]
        rank = RANK_OF[last]
        code = RANK_CHARS[rank]
        bonus = 0.0
        players = self.t.players - len(self.out)
        nxt = self.seat_after(self.me, self.t.direction or 1)
        twos = int(opts.get("pickup_twos", 0) or 0)
        if twos and rank == 0 and all(RANK_OF[c] == 0 for c in cards):
            answer = self.r.chance(nxt, [c for c in self.r.unseen if RANK_OF[c] == 0])
            bonus += 0.5 * twos * len(cards) * (1.0 - 0.6 * answer)
        queens = opts.get("pickup_queens", "none")
        if rank == 10 and (queens == "all" or (queens == "spades" and SUIT_OF[last] == 3)):
            answer = self.r.chance(nxt, [c for c in self.r.unseen if RANK_OF[c] == 10])
            bonus += 0.5 * float(opts.get("queen_pickup", 5)) * (1.0 - 0.6 * answer)
        if opts.get("skip_jacks") and rank == 9:
            if players <= 2:
                again = any(
                    RANK_OF[c] in (self.wild, 9) or SUIT_OF[c] == SUIT_OF[last] for c in rest
                )
                bonus += 2.0 if again else 0.8
            else:
                bonus += 0.8
        if opts.get("reverse_kings") and rank == 11 and players > 2:
            back = self.seat_after(self.me, -(self.t.direction or 1))
            if self.r.counts[back] > self.r.counts[nxt]:
                bonus += 0.5
        next_draws: Mapping[str, int] = opts.get("next_draws", {}) or {}
        skip_draws: Mapping[str, int] = opts.get("skip_draws", {}) or {}
        last_draws: Mapping[str, int] = opts.get("last_draws", {}) or {}
        for c in cards:
            r = RANK_CHARS[RANK_OF[c]]
            bonus += 0.5 * float(next_draws.get(r, 0))
            if r in skip_draws:
                bonus += 1.0 + 0.5 * float(skip_draws[r])
        drawn = last_draws.get(code + SUIT_CHARS[SUIT_OF[last]])
        if drawn:
            bonus += 0.5 * float(drawn)
        return bonus

    def score_bridge(self) -> float:
        """101's bridge ends the round: everybody scores their hand (lowest wins)."""
        mine = sum(self.points(c) for c in self.hand)
        bridge = self.t.bridge or {}
        mine += int(bridge.get("jacks", 0)) * int(self.opts.get("wild_out_points", 0) or 0)
        unseen = self.r.unseen
        mean = sum(self.points(c) for c in unseen) / len(unseen) if unseen else 5.0
        others = [
            self.r.counts[s] * mean
            for s in range(self.t.players)
            if s != self.me and s not in self.out
        ]
        return 100.0 if others and mine < min(others) else -100.0


def choose(view: SeatView, legal: Sequence[Action]) -> Action:
    """``play`` without its safety net: the tests call it to see the bot's own errors."""
    if len(legal) == 1:
        return legal[0]
    chooser = Chooser(view)
    scored = [(chooser.score(a), a) for a in legal]
    best = max(
        scored,
        key=lambda sa: (sa[0], [-c for c in sa[1].cards], -(sa[1].suit or 0), sa[1].type.value),
    )
    return best[1]


def play(view: SeatView, legal: Sequence[Action]) -> Action:
    """The action this seat takes: the best-scoring legal one, ties broken by card order;
    on a bug of its own, the first legal play (or the first legal action)."""
    try:
        return choose(view, legal)
    except Exception:  # a sparring bot never stops a game on its own bug
        plays = [a for a in legal if a.type is ActionType.PLAY]
        return plays[0] if plays else legal[0]
