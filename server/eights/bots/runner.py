"""Where bots meet a game: the only code that turns a position into a bot's input.

The view a bot gets is built by ``view_for`` and read back from its JSON, so it holds
exactly what a device would receive and nothing that refers to the position.
"""

from __future__ import annotations

from eights.rules import Action, Position, SeatView, view_for

from .interface import Bot, BotError, decision_rng


def bot_view(pos: Position, seat: int) -> SeatView:
    return SeatView.from_json(view_for(pos, seat).to_json())


def decide(bot: Bot, view: SeatView) -> Action:
    """The bot's action for the seat of ``view``; a single legal action needs no bot."""
    legal = view.legal
    if not legal:
        raise BotError(f"seat {view.seat} has nothing to do now")
    if len(legal) == 1:
        return legal[0]
    action = bot(view, legal)
    if action not in legal:
        raise BotError(f"the bot answered {action}, which is not one of the legal actions")
    return action


def declares_bridge(bot: Bot, view: SeatView) -> bool:
    """Whether the computer seat of ``view``, whose move just made a bridge (101), declares it.

    Easy declares at random, one time in two (from the view, so the same view always gets
    the same answer); Medium when its hand's points, less 20 for each jack of the move, are
    no more than the others are likely to hold; Hard by the same comparison with an eye on
    the limit (``hundred_choice.bridge_pays``). A bot from outside the project may have
    a ``declares_bridge(view) -> bool`` attribute; without one it declares as Medium would.
    """
    from .easy import Easy
    from .hard import Hard
    from .hundred_choice import declares

    if isinstance(bot, Easy):
        return decision_rng(bot.seed + "/bridge", view).random() < 0.5
    if isinstance(bot, Hard):
        return declares(view, hard=True)
    own = getattr(bot, "declares_bridge", None)
    answer = own(view) if callable(own) else None
    if answer is not None:  # a bot from outside may have no opinion (None): Medium's then
        return bool(answer)
    return declares(view, hard=False)
