"""Dealing a hand from the game's seed, exactly as the live table does."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import EIGHT, RANK_OF, SUIT_OF
from .dice import roll_for_dealer
from .ending import out_after
from .engine import game_result, totals_after
from .events import Dice, Opened
from .options import OptionError
from .position import Position
from .shuffle import game_key, shuffled
from .table import Rules


def deal_hand(
    rules: Rules,
    *,
    seed: str,
    entropy: Sequence[str] = (),
    hand_no: int = 0,
    dealer: int | None = None,
    scores: Sequence[int] | None = None,
    out: Sequence[int] = (),
) -> Position:
    """Shuffle the deck for (seed, entropy, hand_no) and deal it.

    One card at a time, starting on the dealer's left, until every hand has the table's
    count; the next card starts the pile. An opening eight (where the table buries it)
    goes back into the middle of the stock and the next card is turned instead. Where the
    dealer opens (``dealer_opens``), the dealer's last card dealt is the pile instead and the
    dealer is to act. Seats ``out`` of the game are dealt nothing.
    """
    n = rules.players
    dealer = n - 1 if dealer is None else dealer
    if not 0 <= dealer < n or dealer in out:
        raise OptionError(f"the dealer must be a seat in play from 0 to {n - 1}")
    key = game_key(seed, entropy)
    order = shuffled(rules.deck, key, hand_no, 0)
    hands: list[list[int]] = [[] for _ in range(n)]
    seats = [s for s in ((dealer + k) % n for k in range(1, n + 1)) if s not in out]
    first = seats[0]
    at = 0
    for _ in range(rules.hand_size):
        for seat in seats:
            hands[seat].append(order[at])
            at += 1
    rest = order[at:]
    if rules.options.dealer_opens:
        return _dealer_opens(rules, hands, rest, dealer, hand_no, scores, seed, entropy, out, key)
    top = rest.pop(0)
    if rules.options.opening_eight == "bury":
        for _ in range(len(rest)):
            if RANK_OF[top] != EIGHT:
                break
            rest.insert(len(rest) // 2, top)
            top = rest.pop(0)
    rest.reverse()
    pos = Position(
        rules,
        hands,
        [top],
        rest,
        turn=first,
        dealer=dealer,
        hand_no=hand_no,
        scores=list(scores) if scores is not None else None,
        seed=seed,
        entropy=tuple(entropy),
        out=sorted(out),
    )
    pos._key = key
    pos.log.append(Opened(top, None))
    return pos


def _dealer_opens(
    rules: Rules,
    hands: list[list[int]],
    rest: list[int],
    dealer: int,
    hand_no: int,
    scores: Sequence[int] | None,
    seed: str,
    entropy: Sequence[str],
    out: Sequence[int],
    key: bytes,
) -> Position:
    """The dealer's last card goes to the table by itself as the first move; the
    dealer is to act (``opening``), must cover it if it is of ``cover_rank``, and a wild
    opening card orders its own suit until more of its rank are added."""
    top = hands[dealer].pop()
    rest.reverse()
    wild = RANK_OF[top] == rules.wild
    pos = Position(
        rules,
        hands,
        [top],
        rest,
        suit=SUIT_OF[top] if wild else None,
        turn=dealer,
        dealer=dealer,
        hand_no=hand_no,
        scores=list(scores) if scores is not None else None,
        seed=seed,
        entropy=tuple(entropy),
        out=sorted(out),
        opening=True,
        cover=RANK_OF[top] == rules.cover,
    )
    pos._key = key
    pos.log.append(Opened(top, pos.suit))
    return pos


def new_game(
    rules: Rules, seed: str, entropy: Sequence[str] = (), first_dealer: int | None = None
) -> Position:
    """The first hand of a game. By default the last seat deals, so seat 0 plays first;
    where the table rolls for it (``first_dealer: "dice"``) and no dealer is given, the
    dice choose, and the rolls are the first event of the hand's log."""
    if first_dealer is None and rules.options.first_dealer == "dice":
        dealer, rolls = roll_for_dealer(game_key(seed, entropy), range(rules.players))
        pos = deal_hand(rules, seed=seed, entropy=entropy, dealer=dealer)
        pos.log.insert(0, Dice(rolls, dealer))
        return pos
    return deal_hand(rules, seed=seed, entropy=entropy, dealer=first_dealer)


def next_dealer(pos: Position) -> int:
    """Who deals the hand after ``pos``: by default the deal moves one seat to the left
    (with two, the starter alternates); with ``highest_total``, the highest total deals
    (on equal totals, the first of them to the left of the last dealer). Only seats still
    in the game deal."""
    n = pos.players
    out = out_after(pos)
    order = [s for s in ((pos.dealer + k) % n for k in range(1, n + 1)) if s not in out]
    if pos.rules.options.next_dealer == "left":
        return order[0]
    totals = totals_after(pos)
    return max(order, key=lambda seat: (totals[seat], -order.index(seat)))


def next_hand(pos: Position) -> Position:
    """Deal the game's next hand after a finished one, carrying the scores."""
    if pos.outcome is None:
        raise ValueError("the hand is not over")
    if game_result(pos) is not None:
        raise ValueError("the game is over")
    return deal_hand(
        pos.rules,
        seed=pos.seed or "",
        entropy=pos.entropy,
        hand_no=pos.hand_no + 1,
        dealer=next_dealer(pos),
        scores=totals_after(pos),
        out=out_after(pos),
    )
