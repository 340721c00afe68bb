"""The rule book in code: a pure, deterministic state machine (see docs/ENGINE.md).

Standard library only; no clock (callers pass `now`), no global random (the seeded
generator's state lives in the game), no I/O.
"""

from . import actions, chat, day, ending, flow, options, presets, registry, roles, rules, views  # noqa: F401  (day, roles, options, presets register themselves)
from .actions import ACTION_STEP, actors, check_request, legal_actions
from .catalog import catalog
from .chat import game_channels, readable_channels, writable_channel, writable_channels
from .ending import leave, stop
from .errors import IllegalAction
from .game import STATE_VERSION, Game, Player
from .rng import shuffled
from .rules import (
    CHANNELS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    check_start,
    composition,
    deck,
    deck_check,
    default_settings,
    effective_settings,
    game_settings,
    merge_settings,
    shown_settings,
    wolf_count,
)
from .views import known_roles

ROLES = tuple(registry.ROLES)                   # every card, in the deck's order
OPTIONAL_ROLES = tuple(r.id for r in registry.ROLES.values() if r.optional and r.base)  # RULES.md's four
STEPS = tuple(registry.step_ids())
DEFAULT_LIMITS = {step: registry.STEPS[step].limit for step in STEPS}

__all__ = [
    "ACTION_STEP", "CHANNELS", "DEFAULT_LIMITS", "Game", "IllegalAction", "MAX_PLAYERS",
    "MIN_PLAYERS", "OPTIONAL_ROLES", "Player", "ROLES", "STATE_VERSION", "STEPS", "actors", "advance", "apply",
    "catalog", "check_request", "check_start", "composition", "deck", "deck_check", "default_settings", "effective_settings",
    "known_roles", "leave", "legal_actions", "merge_settings", "shown_settings", "new_game", "post_chat",
    "readable_channels", "stop", "view_for", "views_for", "wolf_count", "writable_channel", "writable_channels",
    "game_channels",
]


def new_game(names: list[str], settings: dict, seed: int, now: float, time_scale: float = 1.0,
             dealt: list[str] | None = None) -> Game:
    """Deal the cards uniformly at random and open night 1.

    ``dealt``: the cards in seat order, then the middle's, instead of the shuffle (tests,
    or a deal made at a real table); it must be the deck's very cards."""
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise IllegalAction("bad_player_count", f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players")
    n = len(names)
    settings = effective_settings(merge_settings(default_settings(), settings), n)
    check_start(settings, n)
    cards = deck(n, settings)
    rng, shuffled_cards = shuffled(seed & ((1 << 64) - 1), cards)
    if dealt is None:
        dealt = shuffled_cards
    elif sorted(dealt) != sorted(cards):
        raise IllegalAction("bad_composition", "the dealt cards are not the deck")
    game = Game(
        players=[Player(seat=i + 1, name=name, role=role) for i, (name, role) in enumerate(zip(names, dealt))],
        settings=game_settings(settings, cards), time_scale=float(time_scale), rng=rng, cards=cards,
        versions=[0] * (n + 1),
    )
    if len(dealt) > n:
        game.extra["middle"] = dealt[n:]   # face down, positions 1 and 2 (A3.1)
    for hook in game.hooks("deal"):
        hook(game)
    game.emit("game_start", "all", now, composition=composition(cards), players=len(names))
    flow.open_game(game, now)
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


def view_for(game: Game, seat: int | None, now: float, shared: dict | None = None) -> dict:
    """The per-player view (views.view_for, ``shared`` as there), with who left; a seat that
    left is offered nothing."""
    view = views.view_for(game, seat, now, shared)
    if game.left:
        for player in view["players"]:
            if player["seat"] in game.left:
                player["left"] = True
        if seat in game.left:
            view["prompt"] = None
            view["channels"]["write"] = None
            view["channels"]["writable"] = []
            view["me"]["left"] = True
    return view


def views_for(game: Game, seats, now: float) -> dict:
    """Each of ``seats``' views of the game as it is now, by seat: what they hold alike is made
    once, the same objects in each (views.view_for's ``shared``)."""
    shared: dict = {}
    return {seat: view_for(game, seat, now, shared) for seat in seats}
