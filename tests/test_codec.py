"""The stored form of a game (codec.py): the same text whichever encoder writes it."""
import json

import pytest

from werewolf import codec, engine

NAMES = [f"P{i}" for i in range(1, 9)]


def played_game(names):
    now = 1_800_000_000.0
    game = engine.new_game(names, engine.default_settings(), 11, now)
    while game.status == "running" and game.day < 2:
        now = game.deadline
        engine.advance(game, now)
    return game


def test_a_game_is_stored_as_the_json_module_would_write_it_and_read_back_whole():
    game = played_game(NAMES)
    stored = codec.encode(game)
    assert stored == f'{{"state_version":{engine.STATE_VERSION},' + game.to_json()[1:]
    assert codec.decode(stored).to_dict() == game.to_dict()


@pytest.mark.parametrize("odd", ["\ud800", "é\udfff🐺"])
def test_an_older_game_holding_a_lone_surrogate_is_still_stored_and_read(odd):
    """The door refuses such text now (web/http.py); games saved before it may hold some."""
    game = played_game([odd, *NAMES[1:]])
    stored = codec.encode(game)
    assert json.loads(stored)["players"][0]["name"] == odd
    assert codec.decode(stored).to_dict() == game.to_dict()
    escaped = json.dumps(json.loads(stored))  # as a store that escapes it would hand it back
    assert codec.decode(escaped).players[0].name == odd
