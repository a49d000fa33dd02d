"""The one door out: what a seat (or a spectator) may see of a position.

Every message to a device, every bot's input and every log line about a game is built
from ``view_for`` / ``public_view`` / ``event_for``. They never include another seat's
cards, the stock's order, or the seed before the game is over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .actions import DRAW, Action, parse_seatless_action
from .cards import CODE_OF, SUIT_CHARS, Card, codes, parse_card, parse_suit
from .engine import game_result, legal_actions, totals_after
from .events import (
    BankRenewed,
    BridgeDeclared,
    Dice,
    Drew,
    Eliminated,
    Event,
    GameOver,
    HandOver,
    Kept,
    Opened,
    Ordered,
    Passed,
    Penalty,
    PickupWaiting,
    Played,
    Reshuffled,
    Reversed,
    Skipped,
    TimedOut,
    Took,
    TotalReset,
    TurnEnded,
)
from .matching import can_draw, is_drawing, new_stock_size, suit_in_force
from .moves import can_renew_or_draw
from .outcome import EndReason, GameOutcome, HandOutcome
from .position import Position
from .reasons import rejection_for, unplayable_reasons
from .shuffle import fingerprint


@dataclass(frozen=True)
class HandResult:
    reason: str
    winners: tuple[int, ...]
    points: tuple[int, ...]
    remaining: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    """Every hand as it stood at the end: tabled for counting, so everyone may see them."""
    multiplier: int = 1
    """What every score of the hand was multiplied by (101's bank; 1 elsewhere)."""
    bonus: tuple[int, ...] = ()
    """Each seat's points for the wild cards of the move that ended the round (101: -20 a
    jack for the seat that went out or declared a bridge), before the multiplier."""
    wilds: tuple[int, ...] = ()
    """The wild cards of that move, counted for the seat that made it (0 for the others)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "winner": self.winners[0] if len(self.winners) == 1 else None,
            "winners": list(self.winners),
            "points": list(self.points),
            "remaining": list(self.remaining),
            "hands": [codes(h) for h in self.hands],
            "multiplier": self.multiplier,
            "bonus": list(self.bonus) or [0] * len(self.points),
            "wilds": list(self.wilds) or [0] * len(self.points),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HandResult:
        return cls(
            reason=data["reason"],
            winners=tuple(data["winners"]),
            points=tuple(data["points"]),
            remaining=tuple(data["remaining"]),
            hands=tuple(tuple(parse_card(c) for c in h) for h in data["hands"]),
            multiplier=data.get("multiplier", 1),
            bonus=tuple(data.get("bonus", ())),
            wilds=tuple(data.get("wilds", ())),
        )


@dataclass(frozen=True)
class PublicView:
    """What anyone at the table sees: counts, the pile, the stock's size, the scores."""

    variant: str
    options: dict[str, Any]
    """The table's options, house rules included (docs/rules.md names them)."""
    players: int
    counts: tuple[int, ...]
    pile: tuple[Card, ...]
    """The whole discard pile, bottom first: every card in it was played face up."""
    pile_size: int
    suit: int | None
    suit_in_force: int
    stock_size: int
    turn: int
    direction: int
    dealer: int
    hand_no: int
    drawing: bool
    draws: int
    can_draw: bool
    passes: int
    reshuffles: int
    scores: tuple[int, ...]
    """Game totals before this hand."""
    totals: tuple[int, ...]
    """Game totals including this hand once it is over."""
    hand_over: HandResult | None
    game_over: GameOutcome | None
    fingerprint: str | None
    seed: str | None
    """Revealed only once the game is over."""
    entropy: tuple[str, ...]
    log: tuple[dict[str, Any], ...] = ()
    """This hand's events in order, as anyone at the table saw them (no drawn cards)."""
    pending: dict[str, Any] | None = None
    """The pickup waiting for the seat to act, ``{"kind": "two", "count": 4}``, or None."""
    multiplier: int = 1
    """The bank's multiplier of this round's points (101)."""
    draws_left: int | None = None
    """Draws the seat to act may still make before its move, where a limit applies now."""
    cover: bool = False
    """The seat to act must cover the six it laid."""
    bridge: dict[str, int] | None = None
    """``{"seat": s, "jacks": n}``: the seat that may declare a bridge now."""
    out: tuple[int, ...] = ()
    """Seats out of the game."""
    limit: int | None = None
    """The game's limit, where totals over it are out."""
    skips: tuple[int, ...] = ()
    """Skips owed, one number a seat."""
    opening: bool = False
    """The dealer's opening move is under way."""
    new_stock: int | None = None
    """With the stock empty: the cards a draw now turns into a new stock (the pile under
    its top card); None when the stock holds cards or no new stock would be made."""

    @property
    def top(self) -> Card:
        return self.pile[-1]

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "options": self.options,
            "players": self.players,
            "counts": list(self.counts),
            "pile": codes(self.pile),
            "pile_size": self.pile_size,
            "suit": None if self.suit is None else SUIT_CHARS[self.suit],
            "suit_in_force": SUIT_CHARS[self.suit_in_force],
            "stock_size": self.stock_size,
            "turn": self.turn,
            "direction": self.direction,
            "dealer": self.dealer,
            "hand_no": self.hand_no,
            "drawing": self.drawing,
            "draws": self.draws,
            "can_draw": self.can_draw,
            "passes": self.passes,
            "reshuffles": self.reshuffles,
            "scores": list(self.scores),
            "totals": list(self.totals),
            "hand_over": None if self.hand_over is None else self.hand_over.to_json(),
            "game_over": None
            if self.game_over is None
            else {"scores": list(self.game_over.scores), "winners": list(self.game_over.winners)},
            "fingerprint": self.fingerprint,
            "seed": self.seed,
            "entropy": list(self.entropy),
            "log": list(self.log),
            "pending": self.pending,
            "multiplier": self.multiplier,
            "draws_left": self.draws_left,
            "cover": self.cover,
            "bridge": self.bridge,
            "out": list(self.out),
            "limit": self.limit,
            "skips": list(self.skips),
            "opening": self.opening,
            "new_stock": self.new_stock,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PublicView:
        """The inverse of ``to_json``: what a device or a bot outside the project reads."""
        hand_over = data["hand_over"]
        game_over = data["game_over"]
        return cls(
            variant=data["variant"],
            options=data["options"],
            players=data["players"],
            counts=tuple(data["counts"]),
            pile=tuple(parse_card(c) for c in data["pile"]),
            pile_size=data["pile_size"],
            suit=None if data["suit"] is None else parse_suit(data["suit"]),
            suit_in_force=parse_suit(data["suit_in_force"]),
            stock_size=data["stock_size"],
            turn=data["turn"],
            direction=data["direction"],
            dealer=data["dealer"],
            hand_no=data["hand_no"],
            drawing=data["drawing"],
            draws=data["draws"],
            can_draw=data["can_draw"],
            passes=data["passes"],
            reshuffles=data["reshuffles"],
            scores=tuple(data["scores"]),
            totals=tuple(data["totals"]),
            hand_over=None if hand_over is None else HandResult.from_json(hand_over),
            game_over=None
            if game_over is None
            else GameOutcome(tuple(game_over["scores"]), tuple(game_over["winners"])),
            fingerprint=data["fingerprint"],
            seed=data["seed"],
            entropy=tuple(data["entropy"]),
            log=tuple(data["log"]),
            pending=data.get("pending"),
            multiplier=data.get("multiplier", 1),
            draws_left=data.get("draws_left"),
            cover=data.get("cover", False),
            bridge=data.get("bridge"),
            out=tuple(data.get("out", ())),
            limit=data.get("limit"),
            skips=tuple(data.get("skips", ())),
            opening=data.get("opening", False),
            new_stock=data.get("new_stock"),
        )


@dataclass(frozen=True)
class SeatView:
    """What one seat sees: the public table plus its own hand and what it may do."""

    seat: int
    table: PublicView
    hand: tuple[Card, ...]
    drawn: Card | None
    """The card this seat just drew that fits and waits to be played (or kept)."""
    legal: tuple[Action, ...]
    unplayable: dict[Card, str] = field(default_factory=dict)
    """For each card of the hand no legal action lays first: why, in one sentence."""
    cannot_draw: str | None = None
    """For the seat to act that may not draw now: why, in the engine's sentence (the stock's
    tap, long press and D say it); None when it may draw, or it is not its turn."""

    def to_json(self) -> dict[str, Any]:
        out = self.table.to_json()
        out.update(self.own_json())
        return out

    def own_json(self) -> dict[str, Any]:
        """The seat's own part of ``to_json`` (the rest is the public table's)."""
        return {
            "seat": self.seat,
            "hand": codes(self.hand),
            "drawn": None if self.drawn is None else CODE_OF[self.drawn],
            "legal": [a.to_json() for a in self.legal],
            "unplayable": {CODE_OF[c]: why for c, why in self.unplayable.items()},
            "cannot_draw": self.cannot_draw,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatView:
        """The inverse of ``to_json``: a bot gets exactly what a device receives."""
        drawn = data["drawn"]
        return cls(
            seat=data["seat"],
            table=PublicView.from_json(data),
            hand=tuple(parse_card(c) for c in data["hand"]),
            drawn=None if drawn is None else parse_card(drawn),
            legal=tuple(parse_seatless_action(a) for a in data["legal"]),
            unplayable={parse_card(c): why for c, why in data["unplayable"].items()},
            cannot_draw=data.get("cannot_draw"),
        )


def public_view(pos: Position, log: tuple[dict[str, Any], ...] | None = None) -> PublicView:
    """The view for spectators and for the pass-and-play cover screen. ``log``: the hand's
    public log (``public_log``) when the caller keeps it already."""
    outcome = pos.outcome
    totals = totals_after(pos)
    game = game_result(pos)
    return PublicView(
        variant=pos.rules.variant,
        options=pos.rules.options.to_json(),
        players=pos.players,
        counts=tuple(len(h) for h in pos.hands),
        pile=tuple(pos.pile),
        pile_size=len(pos.pile),
        suit=pos.suit,
        suit_in_force=suit_in_force(pos),
        stock_size=len(pos.stock),
        turn=pos.turn,
        direction=pos.direction,
        dealer=pos.dealer,
        hand_no=pos.hand_no,
        drawing=outcome is None and is_drawing(pos),
        draws=pos.draws,
        can_draw=outcome is None and pos.pending is None and _can_draw(pos),
        passes=pos.passes,
        reshuffles=pos.reshuffles,
        scores=tuple(pos.scores),
        totals=tuple(totals),
        hand_over=None if outcome is None else _result(pos, outcome),
        game_over=game,
        fingerprint=None if pos.seed is None else fingerprint(pos.seed),
        seed=pos.seed if game is not None else None,
        entropy=pos.entropy,
        log=tuple(event_for(e, None) for e in pos.log) if log is None else log,
        pending=None
        if pos.pending is None
        else {"kind": pos.pending.kind, "count": pos.pending.count},
        multiplier=pos.multiplier,
        draws_left=_draws_left(pos),
        cover=pos.cover,
        bridge=None if pos.bridge is None else {"seat": pos.bridge.seat, "jacks": pos.bridge.jacks},
        out=tuple(pos.out),
        limit=pos.rules.options.limit if pos.rules.options.game_end == "limit" else None,
        skips=tuple(pos.skips),
        opening=pos.opening,
        new_stock=new_stock_size(pos),
    )


def _can_draw(pos: Position) -> bool:
    """Whether a card can come from the stock for the seat to act now. On the moves path:
    not in the opening move, without limit while covering a six (whether a card of its hand
    covers it is the seat's own business: its ``legal`` says), else up to ``max_draws``."""
    if not pos.rules.moves:
        return can_draw(pos)
    if pos.opening and not pos.cover:
        return False
    most = pos.rules.options.max_draws or 0
    return can_renew_or_draw(pos) and (pos.cover or pos.draws < most)


def _draws_left(pos: Position) -> int | None:
    """How many more cards the seat to act may draw before its move, where a per-turn limit
    applies now (not while it covers a six, nor in the dealer's opening move)."""
    most = pos.rules.options.max_draws
    if pos.outcome is not None or most is None or pos.cover or pos.opening:
        return None
    return max(most - pos.draws, 0)


def view_for(pos: Position, seat: int, table: PublicView | None = None) -> SeatView:
    """What ``seat`` sees: its own hand, the public table, its legal actions and reasons.
    ``table``: ``public_view(pos)`` when the caller has it already (one for every seat)."""
    if not 0 <= seat < pos.players:
        raise ValueError(f"no seat {seat} at a table of {pos.players}")
    legal = legal_actions(pos) if seat == pos.turn else []
    return SeatView(
        seat=seat,
        table=public_view(pos) if table is None else table,
        hand=tuple(pos.hands[seat]),
        drawn=pos.drawn if seat == pos.turn else None,
        legal=tuple(legal),
        unplayable=unplayable_reasons(pos, seat, legal),
        cannot_draw=_cannot_draw(pos, seat, legal),
    )


def _cannot_draw(pos: Position, seat: int, legal: list[Action]) -> str | None:
    """Why the seat to act may not draw now (None when it may, or is not to act)."""
    if seat != pos.turn or pos.outcome is not None or DRAW in legal:
        return None
    return rejection_for(pos, seat, DRAW).message


def _result(pos: Position, outcome: HandOutcome) -> HandResult:
    """The hand's end as everyone sees it, with how its scores were made: the multiplier
    and, for the seat whose last move ended the round, its wild cards and their points."""
    o = pos.rules.options
    seats = len(outcome.points)
    bonus = [0] * seats
    wilds = [0] * seats
    rule = o.win_points if outcome.reason is EndReason.WENT_OUT else o.blocked_points
    scored = outcome.reason is not EndReason.FINISHED and rule == "own_cards"
    ended = pos.ended
    if scored and ended is not None and ended.jacks and ended.seat not in pos.out:
        wilds[ended.seat] = ended.jacks
        bonus[ended.seat] = ended.jacks * o.wild_out_points
    return HandResult(
        reason=outcome.reason.value,
        winners=outcome.winners,
        points=outcome.points,
        remaining=outcome.remaining,
        hands=tuple(tuple(h) for h in pos.hands),
        multiplier=pos.multiplier if scored else 1,
        bonus=tuple(bonus),
        wilds=tuple(wilds),
    )


def event_for(event: Event, seat: int | None) -> dict[str, Any]:
    """An event as ``seat`` may be told it (None: a spectator); private cards stay private."""
    if isinstance(event, Opened):
        return {
            "type": "opened",
            "card": CODE_OF[event.card],
            "suit": None if event.suit is None else SUIT_CHARS[event.suit],
        }
    if isinstance(event, Played):
        out: dict[str, Any] = {"type": "played", "seat": event.seat, "cards": codes(event.cards)}
        out["suit"] = None if event.suit is None else SUIT_CHARS[event.suit]
        return out
    if isinstance(event, Drew | Kept):
        kind = "drew" if isinstance(event, Drew) else "kept"
        out = {"type": kind, "seat": event.seat}
        if seat == event.seat:
            out["card"] = CODE_OF[event.card]
        return out
    if isinstance(event, Passed):
        return {"type": "passed", "seat": event.seat}
    if isinstance(event, Ordered):
        return {"type": "ordered", "seat": event.seat, "suit": SUIT_CHARS[event.suit]}
    if isinstance(event, TurnEnded):
        return {"type": "turn_ended", "seat": event.seat}
    if isinstance(event, TimedOut):
        return {"type": "timed_out", "seat": event.seat}
    if isinstance(event, PickupWaiting):
        return {"type": "pickup", "seat": event.seat, "kind": event.kind, "count": event.pickup}
    if isinstance(event, Took):
        out = {"type": "took", "seat": event.seat, "count": event.pickup}
        out["taken"] = len(event.cards)
        if seat == event.seat:
            out["cards"] = codes(event.cards)
        return out
    if isinstance(event, Skipped):
        return {"type": "skipped", "seat": event.seat}
    if isinstance(event, Reversed):
        return {"type": "reversed", "direction": event.direction}
    if isinstance(event, Reshuffled):
        return {"type": "reshuffled", "cards": event.cards, "times": event.times}
    if isinstance(event, Penalty):
        out = {"type": "penalty", "seat": event.seat, "count": len(event.cards)}
        out["due"] = event.due
        out["cause"] = event.cause
        if seat == event.seat:
            out["cards"] = codes(event.cards)
        return out
    if isinstance(event, BankRenewed):
        return {
            "type": "bank_renewed",
            "cards": event.cards,
            "times": event.times,
            "multiplier": event.multiplier,
        }
    if isinstance(event, Dice):
        return {
            "type": "dice",
            "rolls": [{"round": r, "seat": s, "dice": [a, b]} for r, s, a, b in event.rolls],
            "dealer": event.dealer,
        }
    if isinstance(event, BridgeDeclared):
        return {"type": "bridge", "seat": event.seat, "rank": event.rank, "jacks": event.jacks}
    if isinstance(event, TotalReset):
        return {"type": "total_reset", "seat": event.seat, "total": event.total}
    if isinstance(event, Eliminated):
        return {"type": "eliminated", "seat": event.seat, "total": event.total}
    if isinstance(event, HandOver):
        o = event.outcome
        return {
            "type": "hand_over",
            "reason": o.reason.value,
            "winners": list(o.winners),
            "points": list(o.points),
            "remaining": list(o.remaining),
        }
    assert isinstance(event, GameOver)
    return {
        "type": "game_over",
        "scores": list(event.outcome.scores),
        "winners": list(event.outcome.winners),
    }
