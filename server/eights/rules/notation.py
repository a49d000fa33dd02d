"""Positions as JSON, in the form of ../shared/SCENARIOS.md, and back: a round trip.

``position_to_json`` is a god's-eye form (every hand, the stock in order, the seed) for
scenario files, tests and bug reports. It is never sent to a device: see ``view``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import (
    CODE_OF,
    EIGHT,
    QUEEN,
    RANK_NAMES,
    RANK_OF,
    SUIT_CHARS,
    SUIT_OF,
    TWO,
    Card,
    card_name,
    parse_card,
    parse_suit,
)
from .deal import deal_hand, new_game
from .engine import settle
from .errors import PositionError as PositionError
from .events import Opened
from .fields import int_field as _int
from .fields import move_fields, read_out
from .position import Pending, Position
from .table import Rules

FIELDS = (
    "hands",
    "pile",
    "stock",
    "suit",
    "turn",
    "players",
    "direction",
    "pending",
    "drawn",
    "draws",
    "passes",
    "reshuffles",
    "scores",
    "dealer",
    "hand_no",
    "seed",
    "entropy",
    "multiplier",
    "cover",
    "skips",
    "bridge",
    "out",
    "opening",
    "finished",
    "ended",
    "six_stays",
)


def count_players(data: Mapping[str, Any]) -> int:
    """The number of seats a position describes: its hands, or ``players`` when dealt."""
    hands = data.get("hands")
    if isinstance(hands, list) and hands:
        return len(hands)
    players = data.get("players")
    if isinstance(players, int) and not isinstance(players, bool):
        return players
    raise PositionError("a position needs hands (one list a seat) or, to deal, players")


def position_from_json(data: object, rules: Rules) -> Position:
    """Read a position; raises PositionError with the reason when it cannot be."""
    if not isinstance(data, dict):
        raise PositionError("position must be a JSON object")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise PositionError(f"unknown position field(s): {', '.join(unknown)}")
    n = rules.players
    scores = _int_list(data, "scores", n)
    dealer = _int(data, "dealer", None, 0, n - 1)
    hand_no = _int(data, "hand_no", 0, 0, 1_000_000)
    assert hand_no is not None
    seed = data.get("seed")
    if seed is not None and not isinstance(seed, str | int):
        raise PositionError("seed must be a string")
    seed_text = None if seed is None else str(seed)
    entropy = data.get("entropy", [])
    if not isinstance(entropy, list) or not all(isinstance(e, str) for e in entropy):
        raise PositionError("entropy must be a list of strings")
    if "stock" not in data and "pile" not in data:
        if seed_text is None:
            raise PositionError("a position without stock and pile needs a seed to deal from")
        hands = data.get("hands")
        if hands is not None and (not isinstance(hands, list) or any(h != [] for h in hands)):
            raise PositionError("a position dealt from a seed gives no cards in hands")
        out = read_out(data, rules, scores)
        if (
            rules.options.first_dealer == "dice"
            and dealer is None
            and hand_no == 0
            and not out
            and not any(scores or [])
        ):
            # The first hand of a game, dealt as the live table deals it: dice pick the dealer.
            return new_game(rules, seed_text, tuple(entropy))
        pos = deal_hand(
            rules,
            seed=seed_text,
            entropy=tuple(entropy),
            hand_no=hand_no,
            dealer=dealer if dealer is not None else _last_in_play(n, out),
            scores=scores,
            out=out,
        )
        return pos
    hands = data.get("hands")
    if not isinstance(hands, list) or len(hands) != n:
        raise PositionError("hands must be a list with one list of cards a seat")
    seen: dict[Card, str] = {}
    parsed_hands = [_cards(h, f"hands[{i}]", rules, seen) for i, h in enumerate(hands)]
    pile = _cards(data.get("pile"), "pile", rules, seen)
    stock = _cards(data.get("stock", []), "stock", rules, seen)
    if not pile:
        raise PositionError("the pile needs at least its top card")
    suit = None
    if data.get("suit") is not None:
        try:
            suit = parse_suit(data["suit"])
        except ValueError as exc:
            raise PositionError(f"suit: {exc}") from None
        if RANK_OF[pile[-1]] != rules.wild:
            raise PositionError(
                f"a suit is named only by {_wild_name(rules)} on top, not {card_name(pile[-1])}"
            )
    turn = _int(data, "turn", 0, 0, n - 1)
    assert turn is not None
    direction = data.get("direction", 1)
    if direction not in (1, -1) or isinstance(direction, bool):
        raise PositionError("direction is 1 or -1")
    pending = _pending(data.get("pending"), rules, pile)
    drawn = None
    if data.get("drawn") is not None:
        drawn = _card(data["drawn"], "drawn", rules)
        if drawn not in parsed_hands[turn]:
            raise PositionError("drawn must be a card in the hand of the seat to act")
        if pending is not None:
            raise PositionError("a seat with a pickup waiting has not drawn a card")
    draws = _int(data, "draws", 1 if drawn is not None else 0, 0, 60)
    assert draws is not None
    if pending is not None and draws:
        raise PositionError("a seat with a pickup waiting has not drawn: draws must be 0")
    _check_suit_and_drawing(rules, pile, suit, parsed_hands[turn], drawn, draws)
    passes = _int(data, "passes", 0, 0, n)
    reshuffles = _int(data, "reshuffles", 0, 0, 100_000)
    assert passes is not None
    assert reshuffles is not None
    out = read_out(data, rules, scores)
    extra, ended = move_fields(
        data, rules, parsed_hands, pile, suit, turn, dealer, draws, passes, out
    )
    stays = extra.pop("six_stays", [])
    if drawn is not None and rules.moves:
        raise PositionError("at this table no drawn card waits: drawn must be null")
    if sum(1 for s, h in enumerate(parsed_hands) if not h and s not in out and s not in stays) > 1:
        raise PositionError("at most one seat can have gone out")
    if extra.get("opening") and dealer is None:
        dealer = turn  # the dealer makes the opening move
    pos = Position(
        rules,
        parsed_hands,
        pile,
        list(reversed(stock)),
        suit=suit,
        turn=turn,
        direction=direction,
        pending=pending,
        drawn=drawn,
        draws=draws,
        passes=passes,
        reshuffles=reshuffles,
        scores=scores,
        dealer=dealer,
        hand_no=hand_no,
        seed=seed_text,
        entropy=tuple(entropy),
        out=out,
        **extra,
    )
    pos.ended = ended
    pos.log.append(Opened(pile[-1], suit))
    return settle(pos, stays)


def _wild_name(rules: Rules) -> str:
    return "an " + RANK_NAMES[rules.wild] if rules.wild == EIGHT else "a " + RANK_NAMES[rules.wild]


def _last_in_play(n: int, out: list[int]) -> int:
    return next(s for s in range(n - 1, -1, -1) if s not in out)


def _check_suit_and_drawing(
    rules: Rules,
    pile: list[Card],
    suit: int | None,
    hand: list[Card],
    drawn: Card | None,
    draws: int,
) -> None:
    """Refuse the states no table can reach: they would make the rules talk nonsense."""
    o = rules.options
    top = pile[-1]
    if (
        suit is None
        and RANK_OF[top] == rules.wild
        and not (len(pile) == 1 and o.opening_eight == "stays" and not o.dealer_opens)
    ):
        raise PositionError(f"{card_name(top)} is on top: give the suit it named")

    def fits(card: Card) -> bool:
        if RANK_OF[card] == rules.wild:
            return True
        if suit is not None:
            return SUIT_OF[card] == suit
        return SUIT_OF[card] == SUIT_OF[top] or RANK_OF[card] == RANK_OF[top]

    if drawn is not None and not fits(drawn):
        raise PositionError(f"drawn is {card_name(drawn)}, which does not fit: no draw stops there")
    if drawn is None and draws:
        if o.draw_rule == "one_card":
            raise PositionError(
                "under the one-card rule a turn ends after a draw that does not fit"
            )
        if not o.draw_with_legal and any(fits(c) for c in hand):
            raise PositionError(
                "the seat to act is drawing while a card of its hand fits, which this table forbids"
            )


def _pending(raw: object, rules: Rules, pile: list[Card]) -> Pending | None:
    """A pickup waiting for the seat to act: only where the table has one, only on the card
    that makes it, and never with a suit named (twos and queens name none)."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != {"kind", "count"}:
        raise PositionError('pending is null or {"kind": "two" or "queen", "count": n}')
    kind, count = raw["kind"], raw["count"]
    if kind not in ("two", "queen"):
        raise PositionError(f'pending kind is "two" or "queen", not {kind!r}')
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 1000:
        raise PositionError("pending count must be a whole number from 1 to 1000")
    o = rules.options
    if (kind == "two" and not o.pickup_twos) or (kind == "queen" and o.pickup_queens == "none"):
        raise PositionError(f"at this table a {kind} makes no pickup: pending must be null")
    rank = TWO if kind == "two" else QUEEN
    if RANK_OF[pile[-1]] != rank or len(pile) < 2:
        raise PositionError(f"a {kind} pickup waits only with a {kind} laid on top of the pile")
    return Pending(kind, count)


def position_to_json(pos: Position) -> dict[str, Any]:
    """The whole position; fields a hand starts with are left out, as files may."""
    out: dict[str, Any] = {
        "hands": [[CODE_OF[c] for c in h] for h in pos.hands],
        "pile": [CODE_OF[c] for c in pos.pile],
        "stock": [CODE_OF[c] for c in reversed(pos.stock)],
        "suit": None if pos.suit is None else SUIT_CHARS[pos.suit],
        "turn": pos.turn,
    }
    if pos.direction != 1:
        out["direction"] = pos.direction
    if pos.pending is not None:
        out["pending"] = _pending_json(pos.pending)
    if pos.drawn is not None:
        out["drawn"] = CODE_OF[pos.drawn]
    if pos.draws:
        out["draws"] = pos.draws
    if pos.passes:
        out["passes"] = pos.passes
    if pos.reshuffles:
        out["reshuffles"] = pos.reshuffles
    out["scores"] = list(pos.scores)
    out["dealer"] = pos.dealer
    if pos.hand_no:
        out["hand_no"] = pos.hand_no
    if pos.seed is not None:
        out["seed"] = pos.seed
    if pos.entropy:
        out["entropy"] = list(pos.entropy)
    if pos.multiplier != 1:
        out["multiplier"] = pos.multiplier
    if pos.cover:
        out["cover"] = True
    if any(pos.skips):
        out["skips"] = list(pos.skips)
    if pos.bridge is not None:
        out["bridge"] = {"seat": pos.bridge.seat, "jacks": pos.bridge.jacks}
    if pos.out:
        out["out"] = list(pos.out)
    if pos.opening:
        out["opening"] = True
    if pos.finished:
        out["finished"] = True
    ended = pos.ended
    if ended is not None and (ended.reason == "bridge" or ended.jacks):
        out["ended"] = {"reason": ended.reason, "seat": ended.seat, "jacks": ended.jacks}
    stays = six_stays(pos)
    if stays:
        out["six_stays"] = stays
    return out


def six_stays(pos: Position) -> list[int]:
    """101: the seats in play whose hand is empty though they did not go out (their last
    card was a six that could not be covered and stayed, reading 26)."""
    if not pos.rules.moves:
        return []
    outcome = pos.outcome
    gone = outcome.winners[0] if outcome is not None and outcome.reason.value == "went_out" else -1
    return [
        s
        for s in pos.in_play()
        if not pos.hands[s] and s != gone and not (pos.cover and s == pos.turn)
    ]


def _pending_json(pending: Pending) -> dict[str, Any]:
    return {"kind": pending.kind, "count": pending.count}


def _card(raw: object, where: str, rules: Rules) -> Card:
    try:
        card = parse_card(raw)
    except ValueError as exc:
        raise PositionError(f"{where}: {exc}") from None
    if card not in rules.deck_set:
        raise PositionError(
            f"{where}: {CODE_OF[card]} is not in the {rules.options.deck}-card deck"
        )
    return card


def _cards(raw: object, where: str, rules: Rules, seen: dict[Card, str]) -> list[Card]:
    if not isinstance(raw, list):
        raise PositionError(f"{where} must be a list of cards")
    out = []
    for item in raw:
        card = _card(item, where, rules)
        if card in seen:
            raise PositionError(f"{CODE_OF[card]} is twice in the position ({seen[card]}, {where})")
        seen[card] = where
        out.append(card)
    return out


def _int_list(data: Mapping[str, Any], name: str, n: int) -> list[int] | None:
    value = data.get(name)
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or len(value) != n
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise PositionError(f"{name} must be a list of {n} whole numbers")
    return list(value)
