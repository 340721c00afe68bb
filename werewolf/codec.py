"""The stored form of a game: its state as JSON led by its format's version, and its moves
as JSON lines (what history.replay plays again)."""
import json

from . import engine


def encode(game) -> str:
    """The stored form of a game: its JSON, led by the state version its format has."""
    return f'{{"state_version":{engine.STATE_VERSION},' + game.to_json()[1:]


def decode(state: str):
    """The engine game of a stored state of any version (Game.from_dict upgrades it)."""
    return engine.Game.from_dict(json.loads(state))


def moves_text(moves: list[dict]) -> str:
    """Moves as the ``moves`` column holds them: one JSON line each."""
    return "".join(json.dumps(move, separators=(",", ":"), ensure_ascii=False) + "\n" for move in moves)
