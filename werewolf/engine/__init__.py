"""The rule book in code: a pure, deterministic state machine (see docs/ENGINE.md).

Standard library only; no clock (callers pass `now`), no global random (the seeded
generator's state lives in the game), no I/O.
"""

from . import actions, chat, ending, flow, views
from .actions import ACTION_STEP, actors, check_request, legal_actions
from .chat import readable_channels, writable_channel
from .ending import leave, stop
from .errors import IllegalAction
from .game import Game, Player
from .rng import shuffled
from .rules import (CHANNELS, DEFAULT_LIMITS, MAX_PLAYERS, MIN_PLAYERS, OPTIONAL_ROLES, ROLES,
                    STEPS, composition, deck, default_settings, merge_settings, wolf_count)
from .views import known_roles

__all__ = [
    "ACTION_STEP", "CHANNELS", "DEFAULT_LIMITS", "Game", "IllegalAction", "MAX_PLAYERS",
    "MIN_PLAYERS", "OPTIONAL_ROLES", "Player", "ROLES", "STEPS", "actors", "advance", "apply",
    "check_request", "composition", "deck", "default_settings", "known_roles", "leave", "legal_actions",
    "merge_settings", "new_game", "post_chat", "readable_channels", "stop", "view_for", "wolf_count",
    "writable_channel",
]


def new_game(names: list[str], settings: dict, seed: int, now: float, time_scale: float = 1.0) -> Game:
    """Deal the cards uniformly at random and open night 1."""
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise IllegalAction("bad_player_count", f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players")
    settings = merge_settings(default_settings(), settings)
    # Who may watch is the server's business, not the rules': a game holds no table option.
    settings.pop("options")
    cards = deck(len(names), settings)
    rng, dealt = shuffled(seed & ((1 << 64) - 1), cards)
    game = Game(
        players=[Player(seat=i + 1, name=name, role=role) for i, (name, role) in enumerate(zip(names, dealt))],
        settings=settings, time_scale=float(time_scale), rng=rng, cards=cards,
        versions=[0] * (len(names) + 1),
    )
    game.emit("game_start", "all", now, composition=composition(cards), players=len(names))
    flow.begin_night(game, now)
    return game


def advance(game: Game, now: float) -> bool:
    """Resolve the current step's time-out if its deadline has passed; True if it did."""
    if game.status != "running" or game.deadline is None or now < game.deadline:
        return False
    flow.time_out(game, now)
    ending.end_if_idle(game, now)
    return True


def apply(game: Game, seat: int, body: dict, now: float) -> None:
    """Check then apply one player's action (see actions.apply); a seat that left plays no more."""
    ending.refuse_if_left(game, seat)
    actions.apply(game, seat, body, now)
    ending.note_activity(game, seat)


def post_chat(game: Game, seat: int, channel: object, text: object, now: float) -> None:
    ending.refuse_if_left(game, seat)
    chat.post_chat(game, seat, channel, text, now)
    ending.note_activity(game, seat)


def view_for(game: Game, seat: int | None, now: float) -> dict:
    """The per-player view (views.view_for), with who left; a seat that left is offered nothing."""
    view = views.view_for(game, seat, now)
    if game.left:
        for player in view["players"]:
            if player["seat"] in game.left:
                player["left"] = True
        if seat in game.left:
            view["prompt"] = None
            view["channels"]["write"] = None
            view["me"]["left"] = True
    return view
