"""How fast the engine plays: random complete games on one core, for a few seconds.

    .venv/bin/python bench/engine.py [seconds] [--all-roles]

Each game has 18 seats and every base role (``--all-roles``: 6 to 18 seats, every
registered role and option mixed in at random, each game a new draw); every input is a random legal action (from
engine.legal_actions) or a time-out, drawn from this script's own random.Random.
No views are built: this measures the rules, not the JSON. Last line:
``games_per_second: N``.
"""
import random
import statistics
import sys
import time

from werewolf import engine

NAMES = [f"P{i}" for i in range(1, 19)]
MAX_INPUTS = 5000


def random_body(rng: random.Random, spec: dict) -> dict:
    body = {"action": spec["action"]}
    if "cards" in spec:   # a middle card (the Thief)
        body["card"] = rng.choice(spec["choices"])
    elif "count" in spec:
        body["targets"] = rng.sample(spec["choices"], spec["count"])
    elif "min" in spec:   # from min to max seats (scapegoat.voters, RULES-BOX B12)
        body["targets"] = rng.sample(spec["choices"], rng.randint(spec["min"], spec["max"]))
    elif "choices" in spec:
        options = list(spec["choices"]) + ([None] if spec.get("nullable") else [])
        body["target"] = rng.choice(options)
    return body


def mixed_table(rng: random.Random) -> tuple[list[str], dict]:
    """A table of 6-18 seats with a random subset of every registered role and option."""
    while True:
        n = rng.randint(engine.MIN_PLAYERS, engine.MAX_PLAYERS)
        settings = {"roles": {role: rng.random() < 0.6 for role in engine.registry.optional_roles()},
                    "captain": rng.random() < 0.8,
                    "options": {option.id: option.default for option in engine.registry.OPTIONS.values()}}
        try:
            engine.check_start(engine.merge_settings(engine.default_settings(), settings), n)
        except engine.IllegalAction:
            continue   # more cards than seats: draw again
        return NAMES[:n], settings


def play(rng: random.Random, seed: int, all_roles: bool = False) -> tuple[int, str]:
    """One complete game; returns (inputs, winning camp)."""
    now = 1_800_000_000.0
    names, settings = mixed_table(rng) if all_roles else (NAMES, engine.default_settings())
    game = engine.new_game(names, settings, seed, now)
    for inputs in range(1, MAX_INPUTS + 1):
        if rng.random() < 0.15:
            now = game.deadline
            engine.advance(game, now)
        else:
            offers = [(seat, spec) for seat in engine.actors(game)
                      for spec in engine.legal_actions(game, seat)]
            if not offers:
                now = game.deadline
                engine.advance(game, now)
            else:
                seat, spec = rng.choice(offers)
                now += rng.random()
                engine.apply(game, seat, random_body(rng, spec), now)
        if game.status == "ended":
            return inputs, game.winner["camp"]
    raise RuntimeError(f"game {seed} did not end within {MAX_INPUTS} inputs")


def views_per_second(rng: random.Random, seconds: float = 1.0) -> float:
    """view_for for every seat of an 18-seat game in its second day (what a poll costs)."""
    now = 1_800_000_000.0
    game = engine.new_game(NAMES, engine.default_settings(), 7, now)
    while game.status == "running" and game.day < 2:
        now = game.deadline
        engine.advance(game, now)
    count, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for seat in [None, *range(1, 19)]:
            engine.view_for(game, seat, now)
        count += 19
    return count / (time.process_time() - start)


def main(seconds: float = 5.0, all_roles: bool = False) -> None:
    rng = random.Random(20261130)
    games, inputs, camps = 0, [], {}
    start = time.process_time()
    while time.process_time() - start < seconds:
        n, camp = play(rng, rng.getrandbits(64), all_roles)
        games += 1
        inputs.append(n)
        camps[camp] = camps.get(camp, 0) + 1
    elapsed = time.process_time() - start
    print(f"seconds (cpu): {elapsed:.2f}")
    print(f"games: {games}")
    print(f"inputs per game: mean {statistics.mean(inputs):.1f}, max {max(inputs)}")
    print(f"inputs_per_second: {sum(inputs) / elapsed:.0f}")
    print("winners: " + ", ".join(f"{k} {v}" for k, v in sorted(camps.items())))
    print(f"views_per_second: {views_per_second(rng):.0f}")
    print(f"games_per_second: {games / elapsed:.0f}")


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if a != "--all-roles"]
    main(float(arguments[0]) if arguments else 5.0, all_roles="--all-roles" in sys.argv[1:])
