"""Ends that are not a camp's victory: a game stopped by its host, a game nobody plays,
and a player who leaves a running game (RULES.md §9, UX.md "A game nobody plays ends").

Kept apart from the order of play: the kernel only calls `note_activity` when a living
player acts and `end_if_idle` after a time-out.
"""

from . import registry
from .actions import actors
from .errors import IllegalAction
from .flow import end_game
from .game import EVERYONE, Game

STOP_REASONS = ("stopped", "idle")
# Two whole nights and days in which no living player acted: the night counter has moved
# three times since the last act (the night or day of that act, then two whole ones).
IDLE_NIGHTS = 3


def stop(game: Game, now: float, reason: str = "stopped") -> None:
    """End a running game with no winner: every card is shown, as at any end."""
    if reason not in STOP_REASONS:
        raise ValueError(f"unknown stop reason: {reason}")
    if game.status != "running":
        raise IllegalAction("game_over", "the game is over")
    end_game(game, {"camp": registry.WINNER_NONE, "reason": reason, "seats": []}, now)


def note_activity(game: Game, seat: int) -> None:
    """A living player acted or spoke: the game is being played."""
    if game.player(seat).alive:
        game.active_night = game.night


def end_if_idle(game: Game, now: float) -> bool:
    """After a time-out: stop the game if nobody alive has acted for two whole nights and days."""
    if game.status == "running" and game.night - game.active_night >= IDLE_NIGHTS:
        stop(game, now, "idle")
        return True
    return False


def leave(game: Game, seat: int, now: float) -> None:
    """A player leaves a running game: their seat plays no more (as when disconnected for
    good), and the village's rounds no longer wait for their ballot (flow.voters): a round
    whose other voters have all voted closes now. A night step still runs its time, lest
    its early end tell whose card it was."""
    if game.status != "running":
        raise IllegalAction("game_over", "the game is over")
    if seat in game.left:
        raise IllegalAction("already_done", "you have already left this game")
    game.left.append(seat)
    game.emit("player_left", EVERYONE, now, seat=seat)
    step, voters = registry.STEPS[game.step], actors(game)
    if step.ballots and voters and all(map(game.votes.__contains__, voters)):
        step.time_out(game, now)  # as at the round's last ballot (day.cast_ballot)


def refuse_if_left(game: Game, seat: int) -> None:
    if seat in game.left:
        raise IllegalAction("left_game", "you have left this game")
