"""A finished game replays from its recorded inputs (seed, actions with their `now`,
chat, time-outs) to the very same end state.

The fixtures in fixtures/replay_*.json were recorded by this file:

    .venv/bin/python -m tests.engine.test_replay      # re-record after a deliberate rule change

Each holds the table, the seed, every input in order (refused ones with their code),
a readable summary of the end and a hash of the whole end state.
"""
import hashlib
import json
import pathlib
import random

import pytest

from tests.kit.clock import START
from werewolf import engine

FIXTURES = pathlib.Path(__file__).parent / "fixtures"

# name -> (players, settings patch, game seed, first choice seed, what the game must show:
# event kinds, and "winner:<camp>")
GAMES = {
    "replay_6_all_roles": (6, {}, 6, 1, {"lover", "hunter_shot", "election_result"}),
    "replay_12_no_cupid_no_captain": (12, {"roles": {"cupid": False}, "captain": False}, 12, 1,
                                      {"witch_poison", "seer_look", "winner:werewolves"}),
    "replay_18_all_roles": (18, {}, 18, 1, {"succession", "hunter_shot", "tiebreak"}),
}


def state_hash(game) -> str:
    return hashlib.sha256(json.dumps(game.to_dict(), sort_keys=True).encode()).hexdigest()


def summary(game) -> dict:
    return {
        "status": game.status,
        "winner": game.winner,
        "roles": [p.role for p in game.players],
        "alive": [p.alive for p in game.players],
        "lovers": game.lovers,
        "captain": game.captain,
        "nights": game.night,
        "days": game.day,
        "steps": game.step_seq,
        "events": len(game.events),
        "messages": len(game.chat),
        "state_sha256": state_hash(game),
    }


def record(players: int, patch: dict, seed: int, choices: int) -> dict:
    """Play one random game to its end, writing down every input."""
    rnd = random.Random(choices)
    names = [f"Joueur {i}" for i in range(1, players + 1)]
    now = START
    game = engine.new_game(names, patch, seed, now)
    inputs = []
    while game.status == "running":
        roll = rnd.random()
        offers = [(s, spec) for s in engine.actors(game) for spec in engine.legal_actions(game, s)]
        if roll < 0.15 or not offers:
            now = game.deadline
            engine.advance(game, now)
            inputs.append({"advance": now})
            continue
        now = round(now + rnd.uniform(0.1, 5.0), 3)
        if roll < 0.25:
            seat = rnd.randint(1, players)
            entry = {"seat": seat, "chat": rnd.choice(engine.CHANNELS), "text": f"message {len(inputs)}",
                     "now": now}
            attempt = lambda: engine.post_chat(game, seat, entry["chat"], entry["text"], now)  # noqa: E731
        else:
            seat, spec = rnd.choice(offers)
            body = {"action": spec["action"], "step": game.step_seq}
            if "count" in spec:
                body["targets"] = rnd.sample(spec["choices"], spec["count"])
            elif "choices" in spec:
                body["target"] = rnd.choice(spec["choices"] + ([None] if spec.get("nullable") else []))
            if roll < 0.28:
                body["step"] -= 1                      # a late click: refused as stale
            entry = {"seat": seat, "body": body, "now": now}
            attempt = lambda: engine.apply(game, seat, body, now)  # noqa: E731
        try:
            attempt()
        except engine.IllegalAction as refused:
            entry["refused"] = refused.code
        inputs.append(entry)
    return {"players": names, "settings": patch, "seed": seed, "start": START,
            "inputs": inputs, "end": summary(game)}


def replay(recorded: dict):
    game = engine.new_game(recorded["players"], recorded["settings"], recorded["seed"], recorded["start"])
    for i, entry in enumerate(recorded["inputs"]):
        if "advance" in entry:
            assert engine.advance(game, entry["advance"]), f"input {i}: the time-out did nothing"
            continue
        try:
            if "chat" in entry:
                engine.post_chat(game, entry["seat"], entry["chat"], entry["text"], entry["now"])
            else:
                engine.apply(game, entry["seat"], entry["body"], entry["now"])
        except engine.IllegalAction as refused:
            assert entry.get("refused") == refused.code, f"input {i} refused: {refused.code}"
        else:
            assert "refused" not in entry, f"input {i} was refused when recorded"
    return game


@pytest.mark.parametrize("name", sorted(GAMES))
def test_recorded_game_replays_to_the_same_end(name):
    recorded = json.loads((FIXTURES / f"{name}.json").read_text())
    game = replay(recorded)
    end = summary(game)
    assert {k: v for k, v in end.items() if k != "state_sha256"} == \
        {k: v for k, v in recorded["end"].items() if k != "state_sha256"}
    assert end["state_sha256"] == recorded["end"]["state_sha256"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_recorded_game_is_what_the_recorder_plays(name):
    """The recorder is deterministic too: recording again gives the same inputs."""
    players, patch, seed, choices, _ = GAMES[name]
    recorded = json.loads((FIXTURES / f"{name}.json").read_text())
    assert record(players, patch, seed, recorded["choices"]) == {
        k: v for k, v in recorded.items() if k not in ("choices", "about")}


def test_a_game_replays_identically_in_process():
    for choices in range(5):
        recorded = record(9, {}, 1000 + choices, choices)
        game = replay(json.loads(json.dumps(recorded)))
        assert summary(game) == recorded["end"]


def readable_json(document: dict) -> str:
    """One input per line, the rest indented: diffs stay small and readable."""
    parts = []
    for key, value in document.items():
        if key == "inputs":
            rows = ",\n  ".join(json.dumps(entry) for entry in value)
            parts.append(f'"inputs": [\n  {rows}\n ]')
        else:
            parts.append(f"{json.dumps(key)}: {json.dumps(value)}")
    return "{\n " + ",\n ".join(parts) + "\n}\n"


def main():
    for name, (players, patch, seed, choices, wanted) in GAMES.items():
        while True:
            recorded = record(players, patch, seed, choices)
            game = replay(recorded)
            kinds = {e["kind"] for e in game.events} | {f"winner:{game.winner['camp']}"}
            if wanted <= kinds:
                break
            choices += 1
        path = FIXTURES / f"{name}.json"
        document = {"about": f"{players} seats, settings {patch}, shows {sorted(wanted)}",
                    "choices": choices, **recorded}
        path.write_text(readable_json(document))
        print(f"{path.name}: choices {choices}, {len(recorded['inputs'])} inputs, "
              f"winner {recorded['end']['winner']['camp']}, {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
