"""The stored form of a game: its state as JSON led by its format's version, and its moves
as JSON lines (what history.replay plays again)."""
import json

import orjson

from . import engine


def encode(game) -> str:
    """The stored form of a game: its JSON, led by the state version its format has.
    orjson writes it (a tenth of the json module's time, which a save after every move
    paid); the json module only for what orjson refuses, a lone surrogate in an older
    game's chat (web/http.py refuses one at the door now)."""
    try:
        body = orjson.dumps(game.json_data(), option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        body = game.to_json()
    return f'{{"state_version":{engine.STATE_VERSION},' + body[1:]


def decode(state: str):
    """The engine game of a stored state of any version (Game.from_dict upgrades it)."""
    try:
        data = orjson.loads(state)
    except orjson.JSONDecodeError:  # a lone surrogate, as encode's json module wrote it
        data = json.loads(state)
    return engine.Game.from_dict(data)


def moves_text(moves: list[dict]) -> str:
    """Moves as the ``moves`` column holds them: one JSON line each."""
    return "".join(json.dumps(move, separators=(",", ":"), ensure_ascii=False) + "\n" for move in moves)
