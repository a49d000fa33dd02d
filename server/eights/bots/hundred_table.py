"""What a 101 table (``hundred-and-one``) says to its bots, read once per decision: whether
this is such a table at all (``is_101``), what each card does from the options (jacks wild,
sixes to cover, sevens, eights, aces and the queen of spades hitting the next seats,
bridges, a bank that multiplies the round's points, a game played to a limit), and what a
move does to the other seats. The bots' judgement over it is ``hundred_choice.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from eights.rules import Action, SeatView
from eights.rules.cards import (
    ACE,
    CODE_OF,
    DECKS,
    EIGHT,
    JACK,
    KING,
    QUEEN,
    RANK_CHARS,
    RANK_OF,
    SUIT_OF,
    TEN,
    Card,
    parse_card,
)

VARIANT = "hundred-and-one"
BRIDGE_RANKS = frozenset((TEN, JACK, QUEEN, KING, ACE))


def is_101(view: SeatView) -> bool:
    """Whether this table plays 101's cards: a wild rank other than the eight, or any of the
    options that make a card act after a move (none of them is set at another table)."""
    options = view.table.options
    return (
        view.table.variant == VARIANT
        or str(options.get("wild_rank", "8")) != "8"
        or bool(options.get("cover_rank"))
        or bool(options.get("next_draws"))
        or bool(options.get("skip_draws"))
        or bool(options.get("last_draws"))
        or bool(options.get("bridges"))
    )


def field(view: SeatView, name: str, default: Any) -> Any:
    """A field of the view the 101 table adds (on the public table or on the seat's view)."""
    value = getattr(view.table, name, None)
    if value is None:
        value = getattr(view, name, None)
    return default if value is None else value


def _rank(code: object) -> int | None:
    if isinstance(code, str) and len(code) == 1 and code.upper() in RANK_CHARS:
        return RANK_CHARS.index(code.upper())
    return None


@dataclass(frozen=True)
class Table:
    """What a 101 view says, read once per decision: the cards' effects from the options
    (``wild_rank``, ``cover_rank``, ``next_draws``, ``skip_draws``, ``last_draws``,
    ``wild_out_points``, ``points``, ``limit``), the round's state from the view."""

    view: SeatView
    wild: int
    cover_rank: int | None
    next_draws: dict[int, int]
    """Rank -> cards the next seat draws for each card of it in a move (sevens)."""
    skip_draws: dict[int, int]
    """Rank -> each card of it hits one seat, round and round: it draws this many and skips."""
    last_draws: dict[Card, int]
    """Card -> cards the next seat draws when it ends a move (the queen of spades)."""
    wild_out: int
    """Points off for each wild card of the move that goes out or makes a declared bridge."""
    points: tuple[int, ...]
    """Each card's points (by card index; cards outside the deck 0)."""
    multiplier: int
    limit: int | None
    out: frozenset[int]
    cover: bool

    @classmethod
    def of(cls, view: SeatView) -> Table:
        options = view.table.options
        wild = _rank(options.get("wild_rank", "8"))
        given = options.get("points") or {}
        points = []
        for card in range(52):
            code = CODE_OF[card]
            value = given.get(code, given.get(code[0], RANK_OF[card] + 2))
            points.append(int(value))
        limit = field(view, "limit", None)
        if limit is None and options.get("game_end") == "limit":
            limit = options.get("limit")
        return cls(
            view=view,
            wild=EIGHT if wild is None else wild,
            cover_rank=_rank(options.get("cover_rank")),
            next_draws=_by_rank(options.get("next_draws")),
            skip_draws=_by_rank(options.get("skip_draws")),
            last_draws={
                parse_card(k): int(v) for k, v in (options.get("last_draws") or {}).items()
            },
            wild_out=-int(options.get("wild_out_points", 0) or 0),
            points=tuple(points),
            multiplier=int(field(view, "multiplier", 1) or 1),
            limit=int(limit) if limit else None,
            out=frozenset(field(view, "out", ())),
            cover=bool(field(view, "cover", False)),
        )

    def is_wild(self, card: Card) -> bool:
        return RANK_OF[card] == self.wild

    def after_move(self, action: Action) -> Table:
        """This table as the same seat would see it right after laying ``action`` (the
        hits' draws added to the counts), when it moves again."""
        view = self.view
        cards = action.cards
        last = cards[-1]
        counts = list(view.table.counts)
        counts[view.seat] -= len(cards)
        for seat, (draw, _) in hits(self, cards).items():
            counts[seat] += draw
        suit = action.suit if self.is_wild(last) and action.suit is not None else SUIT_OF[last]
        owed = owed_after(self, cards)
        if not self.must_cover(last):  # the turn goes round: every other seat skips once
            owed = [max(0, n - 1) if s != view.seat else n for s, n in enumerate(owed)]
        public = replace(
            view.table,
            skips=tuple(owed),
            pile=(*view.table.pile, *cards),
            counts=tuple(counts),
            suit_in_force=suit,
            suit=action.suit if self.is_wild(last) else None,
        )
        seen = replace(view, table=public, hand=tuple(c for c in view.hand if c not in cards))
        return replace(self, view=seen, cover=self.must_cover(last))

    def must_cover(self, card: Card) -> bool:
        return RANK_OF[card] == self.cover_rank

    def hand_points(self, cards: Sequence[Card]) -> int:
        return sum(self.points[c] for c in cards)

    def in_play(self) -> list[int]:
        """The seats still in the game, in seat order."""
        return [s for s in range(self.view.table.players) if s not in self.out]

    def after(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places after ``seat`` in play order (seats out left out)."""
        seats = self.in_play()
        if seat not in seats:
            seats = sorted({*seats, seat})
        d = self.view.table.direction or 1
        i = seats.index(seat)
        return seats[(i + d * steps) % len(seats)]

    def unseen(self) -> list[Card]:
        """Cards of the deck neither in this hand nor on the table."""
        known = set(self.view.hand) | set(self.view.table.pile)
        deck = DECKS[str(self.view.table.options.get("deck", "52"))]
        return [c for c in deck if c not in known]

    def mean_unseen_points(self) -> float:
        cards = self.unseen()
        return sum(self.points[c] for c in cards) / len(cards) if cards else 0.0


def _by_rank(mapping: object) -> dict[int, int]:
    out: dict[int, int] = {}
    if isinstance(mapping, dict):
        for key, value in mapping.items():
            rank = _rank(key)
            if rank is not None:
                out[rank] = int(value)
    return out


def fits(table: Table, card: Card, top: Card, suit: int) -> bool:
    """Whether ``card`` goes on ``top`` with ``suit`` in force."""
    return table.is_wild(card) or SUIT_OF[card] == suit or RANK_OF[card] == RANK_OF[top]


def hits(table: Table, cards: tuple[Card, ...]) -> dict[int, tuple[int, int]]:
    """Seat -> (cards it must draw, turns it skips) after a move ending with ``cards``."""
    me = table.view.seat
    out: dict[int, list[int]] = {}
    rank = RANK_OF[cards[-1]]
    nxt = table.after(me)
    if rank in table.next_draws:
        out.setdefault(nxt, [0, 0])[0] += table.next_draws[rank] * len(cards)
    if rank in table.skip_draws:
        others = [s for s in table.in_play() if s != me] or [nxt]
        start = others.index(nxt) if nxt in others else 0
        for i in range(len(cards)):
            entry = out.setdefault(others[(start + i) % len(others)], [0, 0])
            entry[0] += table.skip_draws[rank]
            entry[1] += 1
    if cards[-1] in table.last_draws:
        out.setdefault(nxt, [0, 0])[0] += table.last_draws[cards[-1]]
    return {s: (d, k) for s, (d, k) in out.items()}


def owed_after(table: Table, cards: tuple[Card, ...]) -> list[int]:
    """Skips each seat owes right after a move ending with ``cards``."""
    owed = list(table.view.table.skips) or [0] * table.view.table.players
    for seat, (_, skip) in hits(table, cards).items():
        owed[seat] += skip
    return owed


def moves_again(table: Table, cards: tuple[Card, ...]) -> bool:
    """Whether every other seat in play owes a skip after this move, so that the mover moves
    again (at two seats after every skip; at more once all have skipped)."""
    owed = owed_after(table, cards)
    others = [s for s in table.in_play() if s != table.view.seat]
    return bool(others) and all(owed[s] > 0 for s in others)


def makes_bridge(view: SeatView, cards: tuple[Card, ...]) -> bool:
    """Whether laying ``cards`` leaves four cards of one rank of T..A on top of the table."""
    if not view.table.options.get("bridges"):
        return False
    rank = RANK_OF[cards[-1]]
    if rank not in BRIDGE_RANKS or any(RANK_OF[c] != rank for c in cards):
        return False
    top = [*view.table.pile[-4:], *cards][-4:]
    return len(top) == 4 and all(RANK_OF[c] == rank for c in top)
