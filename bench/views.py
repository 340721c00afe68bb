#!/usr/bin/env python3
"""What a change costs in views: every living seat's view of an 18-seat game, made, sized and
serialized as ``poll.LivingViews`` and ``poll._build`` do, at moments from the first night to
the fourth day, the talk growing as it does at a table.

    .venv/bin/python bench/views.py [--rounds 7] [--chat 12]

For each moment, thread CPU per change (the best of ``--rounds``), two ways in the same run:
``alone``, each seat's view made on its own (``engine.view_for``, as up to 21ab127), and
``together``, made in one call that shares what the seats see alike (``engine.views_for``)
with those shared lists serialized once (``view.serialize_shared_once``); beside them
Flask's hello world in process, the reference. Both ways must give the same bytes: checked.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from werewolf import engine  # noqa: E402
from werewolf.web import view  # noqa: E402

NAMES = [f"Joueur {i}" for i in range(1, 19)]
LINE = "Je pense que c'est {} : il a voté contre moi hier et il se tait depuis."


def moments(chat_per_step: int, seed: int = 20261206):
    """(label, game) at each step that opens a night or a day, up to the fourth day."""
    rng = random.Random(seed)
    now = 1_800_000_000.0
    game = engine.new_game(NAMES, engine.default_settings(), seed, now)
    seen = set()
    while game.status == "running" and game.day < 5:
        label = f"night {game.night}" if game.is_night() else f"day {game.day}"
        if label not in seen:
            seen.add(label)
            yield label, game, now
        for seat in rng.sample(range(1, 19), chat_per_step):
            for channel in engine.writable_channels(game, seat)[:1]:
                now += 0.1
                engine.post_chat(game, seat, channel, LINE.format(rng.choice(NAMES)), now)
        now = game.deadline
        engine.advance(game, now)


def change(game, now, together: bool) -> list[bytes]:
    living = [p.seat for p in game.players if p.alive]
    if together:
        views = engine.views_for(game, living, now)
        view.serialize_shared_once(views.values())
    else:
        views = {seat: engine.view_for(game, seat, now) for seat in living}
    largest = max(len(view.serialize(dict(made))) for made in views.values())  # the padded size
    return [largest, *(view.serialize(dict(made)) for made in views.values())]


def cpu_per_call(fn, rounds: int, calls: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.thread_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.thread_time() - start) / calls)
    return best * 1e6


def hello_cpu(rounds: int) -> float:
    from flask import Flask
    app = Flask(__name__)
    app.get("/")(lambda: "Hello, World!")
    client = app.test_client()
    return cpu_per_call(lambda: client.get("/"), rounds, 500)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--chat", type=int, default=12, help="messages per step (12)")
    args = parser.parse_args()
    hello = hello_cpu(args.rounds)
    print(f"hello world (Flask's test client, in process): {hello:.0f} us")
    print(f"{'moment':<9} {'living':>6} {'events':>6} {'lines':>5} {'bytes':>6} {'alone us':>9} {'together us':>11} "
          f"{'ratio':>5} {'together/hello':>14}")
    for label, game, now in moments(args.chat):
        assert change(game, now, True) == change(game, now, False), f"{label}: the bytes differ"
        alone = cpu_per_call(lambda: change(game, now, False), args.rounds, 20)
        together = cpu_per_call(lambda: change(game, now, True), args.rounds, 20)
        size = change(game, now, True)[0]
        print(f"{label:<9} {len(game.living()):>6} {len(game.events):>6} {len(game.chat):>5} {size:>6} "
              f"{alone:>9.0f} {together:>11.0f} {alone / together:>5.2f} {together / hello:>14.1f}")


if __name__ == "__main__":
    main()
