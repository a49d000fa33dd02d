"""The position fields of 101-style tables (``Rules.moves``) in scenario files: reading
them and refusing the ones play could not reach (docs/scenarios.md lists the checks)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import RANK_OF, SUIT_OF, TEN, Card, card_name
from .errors import PositionError
from .position import Bridge, Ended
from .table import Rules


def int_field(
    data: Mapping[str, Any], name: str, default: int | None, low: int, high: int
) -> int | None:
    value = data.get(name, default)
    if value is None:
        return default
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PositionError(f"{name} must be a whole number from {low} to {high}")
    return value


def _bool(data: Mapping[str, Any], name: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise PositionError(f"{name} is true or false")
    return value


def read_out(data: Mapping[str, Any], rules: Rules, scores: list[int] | None) -> list[int]:
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


def move_fields(
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
    multiplier = int_field(data, "multiplier", 1, 1, 1000)
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
        if (
            cover
            or opening
            or any(skips)
            or data.get("bridge")
            or data.get("ended")
            or data.get("six_stays")
        ):
            raise PositionError(
                "cover, opening, skips, bridge, ended, six_stays belong to 101-style tables"
            )
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
    stays = _six_stays(data.get("six_stays"), rules, hands, out, turn, cover, ended)
    return {
        "six_stays": stays,
        "multiplier": multiplier,
        "cover": cover,
        "skips": list(skips),
        "bridge": bridge,
        "opening": opening,
        "finished": finished,
    }, ended


def _six_stays(
    raw: object,
    rules: Rules,
    hands: list[list[Card]],
    out: list[int],
    turn: int,
    cover: bool,
    ended: Ended | None,
) -> list[int]:
    """Seats whose hand is empty though they did not go out: a six they could not cover
    stayed (reading 26). Each is in play, empty-handed, and a six was laid this round."""
    if raw is None:
        return []
    n = rules.players
    if (
        not isinstance(raw, list)
        or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n for s in raw)
        or len(set(raw)) != len(raw)
    ):
        raise PositionError(f"six_stays is a list of distinct seats from 0 to {n - 1}")
    if raw and rules.cover < 0:
        raise PositionError("this table has no six to cover: six_stays must be empty")
    for seat in raw:
        if seat in out or hands[seat]:
            raise PositionError(f"six_stays: seat {seat} is in play with an empty hand")
        if cover and seat == turn:
            raise PositionError(f"six_stays: seat {seat} is still covering its six (cover)")
        if ended is not None and ended.seat == seat and ended.reason == "went_out":
            raise PositionError(f"six_stays: seat {seat} went out")
    return sorted(raw)


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
