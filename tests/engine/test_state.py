"""The game as data: JSON round trip, snapshots, purity (no clock, no global random)."""
import json
import random

from enginekit import T0, Table

from werewolf import engine

SIX = "W V seer witch hunter cupid"


def test_json_round_trip_gives_back_an_equal_game():
    t = Table(SIX)
    t.do(6, "cupid.pair", targets=[1, 2])
    t.until("werewolves")
    t.do(1, "werewolves.designate", 3)
    t.say(1, "werewolves", "hmm")
    copy = engine.Game.from_dict(json.loads(json.dumps(t.game.to_dict())))
    assert copy == t.game
    assert copy.designations == {1: 3}


def test_to_dict_is_a_snapshot_that_later_play_does_not_change():
    t = Table(SIX)
    saved = t.game.to_dict()
    frozen = json.dumps(saved, sort_keys=True)
    t.do(6, "cupid.pair", targets=[1, 2])
    t.timeout()
    assert json.dumps(saved, sort_keys=True) == frozen


def test_a_restored_copy_plays_on_without_touching_the_original():
    t = Table(SIX)
    original = json.dumps(t.game.to_dict(), sort_keys=True)
    copy = engine.Game.from_dict(t.game.to_dict())
    engine.apply(copy, 6, {"action": "cupid.pair", "targets": [1, 2]}, T0 + 1)
    engine.advance(copy, copy.deadline)
    assert json.dumps(t.game.to_dict(), sort_keys=True) == original
    assert t.step == "cupid" and copy.step == "werewolves"


def test_the_engine_never_uses_the_global_random():
    random.seed(1)
    a = Table(SIX, seed=5)
    a.until("werewolves")
    a.do(1, "werewolves.designate", 2)
    random.seed(2)
    b = Table(SIX, seed=5)
    b.until("werewolves")
    b.do(1, "werewolves.designate", 2)
    assert a.game == b.game


def test_the_engine_reads_no_clock():
    """Same inputs at the same `now`: the same game, whenever the test runs."""
    games = []
    for _ in range(2):
        game = engine.new_game([f"P{i}" for i in range(12)], {}, 99, T0)
        engine.advance(game, game.deadline)
        games.append(json.dumps(game.to_dict(), sort_keys=True))
    assert games[0] == games[1]
    assert '"at": "2027-01-15T08:00:00.000Z"' in games[0]


def test_the_engine_imports_only_the_standard_library():
    import ast
    import pathlib
    import sys
    folder = pathlib.Path(engine.__file__).parent
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names, f"{path.name} imports {name}"
                assert top not in ("time", "random", "os", "socket", "io", "pathlib"), \
                    f"{path.name} imports {name}: no clock, no global random, no I/O"


def test_the_living_follow_every_death_whoever_writes_it():
    """Game.living() is remembered between deaths: any write of `alive` must be seen,
    in the game itself, in a restored copy and in a deep copy (the web's cache)."""
    import copy

    t = Table(SIX)
    game = t.game
    assert game.living() == [1, 2, 3, 4, 5, 6]
    game.player(3).alive = False          # as a role module's own rule would
    assert game.living() == [1, 2, 4, 5, 6]
    restored = engine.Game.from_dict(json.loads(game.to_json()))
    twin = copy.deepcopy(game)
    restored.player(4).alive = False
    twin.player(5).alive = False
    assert restored.living() == [1, 2, 5, 6]
    assert twin.living() == [1, 2, 4, 6]
    assert game.living() == [1, 2, 4, 5, 6]   # the copies share nothing with it
    game.living().remove(1)                   # a caller's list is its own
    assert game.living() == [1, 2, 4, 5, 6]
