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
    TEN,
    TWO,
    Card,
    card_name,
    parse_card,
    parse_suit,
)
from .deal import deal_hand, new_game
from .engine import settle
from .events import Opened
from .position import Bridge, Ended, Pending, Position
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
)


class PositionError(ValueError):
    """A position that no table could be in."""


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
        out = _out(data, rules, scores)
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
    out = _out(data, rules, scores)
    extra, ended = _move_fields(
        data, rules, parsed_hands, pile, suit, turn, dealer, draws, passes, out
    )
    if drawn is not None and rules.moves:
        raise PositionError("at this table no drawn card waits: drawn must be null")
    if sum(1 for s, h in enumerate(parsed_hands) if not h and s not in out) > 1:
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
    return settle(pos)


def _wild_name(rules: Rules) -> str:
    return "an " + RANK_NAMES[rules.wild] if rules.wild == EIGHT else "a " + RANK_NAMES[rules.wild]


def _last_in_play(n: int, out: list[int]) -> int:
    return next(s for s in range(n - 1, -1, -1) if s not in out)


def _bool(data: Mapping[str, Any], name: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise PositionError(f"{name} is true or false")
    return value


def _out(data: Mapping[str, Any], rules: Rules, scores: list[int] | None) -> list[int]:
    """Seats out of the game: only at a table with a limit, each over it, two seats left."""
    raw = data.get("out", [])
    n = rules.players
    if (
        not isinstance(raw, list)
        or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n for s in raw)
        or len(set(raw)) != len(raw)
    ):
        raise PositionError(f"out must be a list of different seats from 0 to {n - 1}")
    if not raw:
        return []
    limit = rules.options.limit
    if rules.options.game_end != "limit" or limit is None:
        raise PositionError("only a table with a limit puts seats out of the game: out must be []")
    if n - len(raw) < 2:
        raise PositionError("a game goes on only while two seats or more are in it")
    totals = scores or [0] * n
    for seat in raw:
        if totals[seat] <= limit:
            raise PositionError(
                f"seat {seat} is out, but its total {totals[seat]} is not over {limit}"
            )
    return sorted(raw)


def _move_fields(
    data: Mapping[str, Any],
    rules: Rules,
    hands: list[list[Card]],
    pile: list[Card],
    suit: int | None,
    turn: int,
    dealer: int | None,
    draws: int,
    passes: int,
    out: list[int],
) -> tuple[dict[str, Any], Ended | None]:
    """The fields of the moves path (101): multiplier, cover, skips, bridge, opening, how
    the round ended, and the checks that keep a position one that play could reach."""
    o = rules.options
    n = rules.players
    scores = data.get("scores") or [0] * n
    multiplier = _int(data, "multiplier", 1, 1, 1000)
    assert multiplier is not None
    if multiplier > 1 and not o.bank_multiplier:
        raise PositionError("this table has no bank multiplier: multiplier must be 1")
    cover = _bool(data, "cover")
    opening = _bool(data, "opening")
    finished = _bool(data, "finished")
    skips = data.get("skips")
    if skips is None:
        skips = [0] * n
    if (
        not isinstance(skips, list)
        or len(skips) != n
        or not all(isinstance(k, int) and not isinstance(k, bool) and 0 <= k <= 100 for k in skips)
    ):
        raise PositionError(f"skips must be a list of {n} whole numbers from 0 to 100")
    top = pile[-1]
    if out:
        if turn in out:
            raise PositionError(f"seat {turn} is out of the game and cannot be the seat to act")
        if dealer is not None and dealer in out:
            raise PositionError(f"seat {dealer} is out of the game and cannot have dealt")
        for seat in out:
            if hands[seat] or skips[seat]:
                raise PositionError(
                    f"seat {seat} is out of the game: it holds no cards, owes no skips"
                )
    limit = o.limit
    if limit is not None and o.game_end == "limit":
        for seat in range(n):
            if seat not in out and scores[seat] > limit:
                raise PositionError(
                    f"seat {seat}'s total {scores[seat]} is over {limit}: add it to out"
                )
            if seat not in out and scores[seat] in (limit, rules.half):
                raise PositionError(
                    f"seat {seat}'s total {scores[seat]} would have gone back to 0 on landing there"
                )
    if not rules.moves:
        if cover or opening or any(skips) or data.get("bridge") or data.get("ended"):
            raise PositionError("cover, opening, skips, bridge, ended belong to 101-style tables")
        return {"multiplier": multiplier, "finished": finished}, None
    if any(skips) and not o.skip_draws:
        raise PositionError("no card of this table makes a seat skip: skips must be zeros")
    if skips[turn]:
        raise PositionError(f"seat {turn} is to act, so it owes no skip: skips[{turn}] must be 0")
    most = o.max_draws or 0
    if draws > most and not cover:
        raise PositionError(f"draws must be at most {most} before a move")
    if cover and RANK_OF[top] != rules.cover:
        raise PositionError(f"cover is true only with a card to cover on top, not {card_name(top)}")
    if opening:
        if not o.dealer_opens:
            raise PositionError(
                "at this table the dealer makes no opening move: opening must be false"
            )
        if dealer is not None and turn != dealer:
            raise PositionError("during the opening move the dealer is the seat to act")
        if cover:
            if any(RANK_OF[c] != rules.cover for c in pile):
                raise PositionError("an opening six still to cover leaves only sixes on the table")
        else:
            if len(pile) != 1:
                raise PositionError(
                    "before the dealer adds to it, the opening card is alone on the table"
                )
            if draws:
                raise PositionError("the dealer's opening move draws nothing: draws must be 0")
            if RANK_OF[top] == rules.wild and suit != SUIT_OF[top]:
                raise PositionError("an opening jack orders its own suit: suit must be its suit")
        if passes:
            raise PositionError("nobody has passed during the opening move: passes must be 0")
    if passes > n - len(out):
        raise PositionError("passes cannot be more than the seats in play")
    renewals = data.get("reshuffles") or 0
    bridge = _bridge(data.get("bridge"), rules, pile, out, renewals)
    ended = _ended(data.get("ended"), rules, hands, pile, out, renewals)
    if ended is not None and (bridge is not None or cover or opening):
        raise PositionError("a round that has ended has no bridge to declare, six or opening")
    return {
        "multiplier": multiplier,
        "cover": cover,
        "skips": list(skips),
        "bridge": bridge,
        "opening": opening,
        "finished": finished,
    }, ended


def _ended(
    raw: object,
    rules: Rules,
    hands: list[list[Card]],
    pile: list[Card],
    out: list[int],
    renewals: int,
) -> Ended | None:
    """How the round ended where the cards do not say: a bridge, or going out on jacks."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != {"reason", "seat", "jacks"}:
        raise PositionError('ended is null or {"reason": "went_out" or "bridge", "seat", "jacks"}')
    reason, seat, jacks = raw["reason"], raw["seat"], raw["jacks"]
    n = rules.players
    if reason not in ("went_out", "bridge"):
        raise PositionError(f'ended reason is "went_out" or "bridge", not {reason!r}')
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n or seat in out:
        raise PositionError("ended seat must be a seat in play")
    if not isinstance(jacks, int) or isinstance(jacks, bool) or not 0 <= jacks <= 4:
        raise PositionError("ended jacks must be a whole number from 0 to 4")
    top = pile[-1]
    if jacks and (RANK_OF[top] != rules.wild or jacks > len(pile)):
        raise PositionError("jacks of the last move lie on top of the table: a jack must be on top")
    if reason == "went_out":
        if hands[seat]:
            raise PositionError(f"seat {seat} went out, so its hand is empty")
    else:
        _bridge({"seat": seat, "jacks": jacks}, rules, pile, out, renewals)
    return Ended(reason, seat, jacks)


def _bridge(
    raw: object, rules: Rules, pile: list[Card], out: list[int], renewals: int
) -> Bridge | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != {"seat", "jacks"}:
        raise PositionError('bridge is null or {"seat": s, "jacks": n}')
    seat, jacks = raw["seat"], raw["jacks"]
    n = rules.players
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n or seat in out:
        raise PositionError("bridge seat must be a seat in play")
    if not rules.options.bridges:
        raise PositionError("this table has no bridges: bridge must be null")
    rank = RANK_OF[pile[-1]]
    renewed = len(pile) == 1 and renewals > 0  # its penalty draws renewed the bank
    if rank < TEN or not (
        renewed or (len(pile) >= 4 and all(RANK_OF[c] == rank for c in pile[-4:]))
    ):
        raise PositionError(
            "a bridge is four tens, jacks, queens, kings or aces on top of the table"
            " (or their top card alone, when the move's penalty renewed the bank)"
        )
    most = 4 if rank == rules.wild else 0
    if not isinstance(jacks, int) or isinstance(jacks, bool) or not 0 <= jacks <= most:
        raise PositionError(f"bridge jacks must be a whole number from 0 to {most} here")
    return Bridge(seat, jacks)


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
    return out


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


def _int(
    data: Mapping[str, Any], name: str, default: int | None, low: int, high: int
) -> int | None:
    value = data.get(name, default)
    if value is None:
        return default
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PositionError(f"{name} must be a whole number from {low} to {high}")
    return value


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
