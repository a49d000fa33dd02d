"""Hard's reading of every move the others made this hand: what the rules prove about their
hands (sound for any player), and what their choices tell if they keep a habit (soft).

Each other seat's hand is modelled as slots, one a card, each with the cards it cannot be
(``Belief.slots``). What the rules prove, whoever plays the seat:

- a seat that began to draw where drawing is allowed only without a fitting card held
  nothing that fitted; a drawn card followed by another draw, or that ended the turn,
  did not fit; a drawn card kept (where the table lets a seat keep it) fitted;
- a seat that passed held nothing that fitted (a pass is legal only then; at 101, a pass
  after the third draw of a turn);
- the cards a reshuffle (at 101, a bank renewal) turned into the stock were in no hand held
  before it.

A card laid is taken out of the slots that could have held it; when more than one could,
the slots left are loosened so that every way it could have gone stays possible.

What a choice tells (``Told``), where only eights are special: a seat with Medium's habit
lays the heaviest card of the suit in force it holds and an eight only when nothing else
fits; one that lays its lowest card first holds no lighter one. Where a seat may draw while
a card fits (classic, Ember Ridge, 101), no habit does: a seat that begins to draw held
nothing that fitted, and at 101 a drawn card followed by another draw did not fit, as far
as its habit goes; and where a seat may keep the card that fitted (classic), no habit keeps
one but an eight (at classic with six seats, about half of the positions with a choice
come after another seat kept a card that hand). These are marks on the slots it held at that moment,
never exclusions: the search weighs each seat's habits by how well they explain its moves
and deals its cards by the habit drawn (``search.Dealer``), so a seat that does not keep a
habit is not read by it. A card a seat lays that a habit said it did not hold (every slot
it could have come from marked against it: a light card chosen, a heavier one of that suit
laid later) proves the seat does not keep that habit (``Told.broken``): the dealer reads it
by that habit no more.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from eights.rules import SeatView
from eights.rules.cards import EIGHT, RANK_CHARS, RANK_OF, SUIT_OF, Card, parse_card, parse_suit

from .belief import EIGHTS, RANK_MASK, SUIT_MASK, Belief, Mask, fitting, mask_of
from .medium import points_table

HEAVY: int = 0
"""Index of Medium's habit in a slot's marks: the heaviest card of the suit first."""
LIGHT: int = 1
"""Index of the habit of laying the lightest card first."""
SAVER: int = 2
"""Index of the habit of saving eights (an eight only when nothing else fits), any card else."""
HABITS: int = 3


@dataclass
class Told:
    """What the others' choices tell, slot for slot (parallel to ``Belief.slots``): for each
    habit, the cards a seat keeping it would not have held in that slot."""

    marks: dict[int, list[list[Mask]]] = field(default_factory=dict)
    choices: dict[int, int] = field(default_factory=dict)
    """How many cards each seat chose from its hand this hand (not a card just drawn)."""
    plain: dict[int, int] = field(default_factory=dict)
    """How many of them were not eights."""
    free_draws: dict[int, int] = field(default_factory=dict)
    """Where a seat may draw while a card fits: how many times each seat began to draw."""
    broken: dict[int, list[int]] = field(default_factory=dict)
    """For each seat, how many cards it laid that each habit said it did not hold: every
    slot the card could have come from was marked against it (a seat that chose a light
    card of the suit in force and later laid a heavier one it held then does not keep
    Medium's habit)."""


@dataclass
class _Slot:
    excluded: Mask = 0
    marks: list[Mask] = field(default_factory=lambda: [0] * HABITS)


def read_moves(view: SeatView, tells: bool = True) -> tuple[Belief, Told]:
    """Replay the hand's public log for ``view.seat``: the sound belief, and (with
    ``tells``) what the others' choices tell if they keep a habit."""
    table = view.table
    from .belief import _counts_at_start, _deck

    deck = mask_of(_deck(table.options))
    unseen = deck & ~mask_of(view.hand) & ~mask_of(table.pile)
    strict = not table.options.get("draw_with_legal", False)
    moves_table = table.options.get("draw_rule") == "up_to_max"
    points = points_table(view)
    hands: dict[int, list[_Slot]] = {
        seat: [_Slot() for _ in range(n)]
        for seat, n in enumerate(_counts_at_start(view))
        if seat != view.seat
    }
    top_suit, top_rank = 0, 0
    laid: list[Card] = []
    """The cards on the pile as the log shows them (a reshuffle turns all but the top)."""
    drawn_at: dict[int, int] = {}
    """Seat -> index of the slot of the card it just drew, while its fit is not known."""
    actor = -1
    run = 0
    """The draws of the seat drawing now, this turn."""
    max_draws = int(table.options.get("max_draws") or 0)
    wild = _wild_rank(table.options)
    chosen: dict[int, int] = {}
    plain: dict[int, int] = {}
    free: dict[int, int] = {}
    broken: dict[int, list[int]] = {}
    for event in table.log:
        kind = event["type"]
        if kind == "opened":
            card = parse_card(event["card"])
            top_suit = parse_suit(event["suit"]) if event["suit"] else SUIT_OF[card]
            top_rank = RANK_OF[card]
            laid = [card]
        elif kind == "played":
            seat = event["seat"]
            cards = [parse_card(c) for c in event["cards"]]
            fits = fitting(top_suit, top_rank)
            if seat in hands:
                drawn = drawn_at.pop(seat, None)
                slots = hands[seat]
                if tells and drawn is None and len(cards) == 1 and not moves_table:
                    _mark_choice(slots, cards[0], fits, top_suit, points)
                    chosen[seat] = chosen.get(seat, 0) + 1
                    if RANK_OF[cards[0]] != EIGHT:
                        plain[seat] = plain.get(seat, 0) + 1
                for card in cards:
                    if tells:
                        _read_broken(slots, card, drawn if strict else None, broken, seat)
                    _remove(slots, card, drawn if strict else None)
                    drawn = None
            laid.extend(cards)
            named = event["suit"]
            top_suit = parse_suit(named) if named is not None else SUIT_OF[cards[-1]]
            top_rank = RANK_OF[cards[-1]]
            actor = -1
        elif kind == "took":
            seat = event["seat"]
            if seat in hands:
                hands[seat].extend(_Slot() for _ in range(event["taken"]))
            actor = -1
        elif kind == "penalty":  # 101: cards a move made the seat draw, unseen
            seat = event["seat"]
            if seat in hands:
                hands[seat].extend(_Slot() for _ in range(event["count"]))
        elif kind == "drew":
            seat = event["seat"]
            if seat not in hands:
                actor = seat
                continue
            slots = hands[seat]
            fits = fitting(top_suit, top_rank)
            previous = drawn_at.pop(seat, None)
            run = run + 1 if actor == seat else 1
            if moves_table:  # 101: a seat may draw while a card fits, but no habit does
                if tells:
                    fits = _fitting_at(top_suit, top_rank, wild)
                    if previous is not None and previous < len(slots) and actor == seat:
                        _mark(slots[previous], fits)  # followed by another draw
                    elif actor != seat:
                        for slot in slots:
                            _mark(slot, fits)
                        free[seat] = free.get(seat, 0) + 1
            elif previous is not None and previous < len(slots):
                slots[previous].excluded |= fits  # followed by another draw: it did not fit
            elif strict and actor != seat:
                for slot in slots:
                    slot.excluded |= fits  # beginning to draw: nothing fitted
            elif tells and actor != seat:
                for slot in slots:  # no habit draws while a card fits (a random player may)
                    _mark(slot, fits)
                free[seat] = free.get(seat, 0) + 1
            slots.append(_Slot())
            drawn_at[seat] = len(slots) - 1
            actor = seat
        elif kind in ("reshuffled", "bank_renewed"):
            moved = mask_of(laid[:-1])
            for slots in hands.values():
                for slot in slots:
                    slot.excluded |= moved  # in the stock now: in no hand held before
            laid = laid[-1:]
        elif kind == "ordered":  # 101: the dealer ordered a suit for its opening jack
            top_suit = parse_suit(event["suit"])
            actor = -1
        elif kind in ("kept", "turn_ended", "passed"):
            seat = event["seat"]
            index = drawn_at.pop(seat, None)
            if seat in hands:
                fits = fitting(top_suit, top_rank)
                if kind == "turn_ended" and index is not None and index < len(hands[seat]):
                    hands[seat][index].excluded |= fits
                elif kind == "kept" and index is not None and index < len(hands[seat]):
                    slot = hands[seat][index]
                    slot.excluded |= ALL_MASK & ~_fitting_at(top_suit, top_rank, wild)  # it fitted
                    if tells and not moves_table:
                        for habit in range(HABITS):  # and no habit keeps one but an eight
                            slot.marks[habit] |= ALL_MASK & ~EIGHTS
                elif kind == "passed" and not moves_table:
                    for slot in hands[seat]:
                        slot.excluded |= fits  # a pass is legal only when nothing fits
                elif kind == "passed" and actor == seat and run >= max_draws:
                    fits = _fitting_at(top_suit, top_rank, wild)
                    for slot in hands[seat]:  # 101: nothing fitted after the last draw
                        slot.excluded |= fits
            actor = seat
    slots_of = {seat: [s.excluded for s in slots] for seat, slots in hands.items()}
    marks = {seat: [list(s.marks) for s in slots] for seat, slots in hands.items()}
    return Belief(unseen, slots_of), Told(marks, chosen, plain, free, broken)


def _read_broken(
    slots: list[_Slot], card: Card, drawn: int | None, broken: dict[int, list[int]], seat: int
) -> None:
    """Count against each habit a card laid from slots that habit said could not hold it
    (all of those the card could have come from, by the rules)."""
    bit = 1 << card
    could = [slots[i] for i in _could_hold(slots, card, drawn)]
    if not could:
        return
    for habit in range(HABITS):
        if all(slot.marks[habit] & bit for slot in could):
            counts = broken.setdefault(seat, [0] * HABITS)
            counts[habit] += 1


def _mark(slot: _Slot, fits: Mask) -> None:
    """A slot that no habit would have held while drawing: none of ``fits``."""
    for habit in range(HABITS):
        slot.marks[habit] |= fits


def _wild_rank(options: dict[str, object]) -> int:
    """The rank that goes on anything (the eight, or 101's jack)."""
    return RANK_CHARS.index(str(options.get("wild_rank") or "8"))


def _fitting_at(suit: int, rank: int, wild: int) -> Mask:
    """Every card that goes on a top card of ``rank`` with ``suit`` in force where ``wild``
    is the wild rank (at 101 the eights are plain cards of their suit)."""
    return WHOLE_SUIT[suit] | RANK_MASK[rank] | RANK_MASK[wild]


ALL_MASK: Mask = (1 << 52) - 1
"""Every card."""
WHOLE_SUIT: tuple[Mask, ...] = tuple(
    sum(1 << c for c in range(52) if SUIT_OF[c] == s) for s in range(4)
)
"""Every card of each suit, eights included."""


def _mark_choice(
    slots: list[_Slot], card: Card, fits: Mask, top_suit: int, points: tuple[int, ...]
) -> None:
    """A card a seat chose from its hand: mark each slot it held with what each habit rules
    out (the card's own slot is taken out next, so its marks do not matter)."""
    others = fits & ~EIGHTS
    if RANK_OF[card] == EIGHT:
        for slot in slots:  # every habit lays an eight only when nothing else fits
            for habit in range(HABITS):
                slot.marks[habit] |= others
        return
    if SUIT_OF[card] != top_suit:
        return  # laid on its rank: the suit it changed to says nothing of one card
    mine = points[card]
    heavier = lighter = 0
    for other in range(52):
        if SUIT_MASK[top_suit] >> other & 1:
            if points[other] > mine:
                heavier |= 1 << other
            elif points[other] < mine:
                lighter |= 1 << other
    for slot in slots:
        slot.marks[HEAVY] |= heavier
        slot.marks[LIGHT] |= lighter


def _could_hold(slots: list[_Slot], card: Card, drawn: int | None) -> list[int]:
    """The slots ``card`` may have been laid from: ``drawn`` (the card just drawn, where
    nothing else could fit) if it does not exclude it, else every slot that does not."""
    bit = 1 << card
    if drawn is not None and drawn < len(slots) and not slots[drawn].excluded & bit:
        return [drawn]
    return [i for i, slot in enumerate(slots) if not slot.excluded & bit]


def _remove(slots: list[_Slot], card: Card, drawn: int | None) -> None:
    """Take out the slot ``card`` was laid from. ``drawn``: the slot it must have been (the
    card just drawn, where nothing else could fit). Otherwise the most constrained slot that
    could have held it goes, and the others that could have are loosened to what that one
    allowed too, so that the slots left hold the cards left whichever slot it was."""
    could = _could_hold(slots, card, drawn)
    if not could:  # the log and the slots disagree (a position read from a file): keep sizes
        if slots:
            slots.pop(max(range(len(slots)), key=lambda i: slots[i].excluded.bit_count()))
        return
    gone = max(could, key=lambda i: (slots[i].excluded.bit_count(), i))
    left = slots[gone]
    for i in could:
        if i != gone:
            slot = slots[i]
            slot.excluded &= left.excluded
            slot.marks = [a & b for a, b in zip(slot.marks, left.marks, strict=True)]
    slots.pop(gone)
