"""The secrecy audit (tests/kit/audit.py) in CI: 200 random complete games over HTTP,
every response of every player checked against RULES.md §8 by an oracle that reads
the full state and does not use engine.views. Plus proof that the oracle catches leaks."""
import os

import pytest

from tests.conftest import requires_sqlite
from tests.kit import audit

CI_GAMES = 200


@requires_sqlite  # it plays on SQLite files of its own: the SQLite run has done it
def test_two_hundred_random_games_leak_nothing():
    workers = 2 if (os.cpu_count() or 1) >= 2 else 1
    stats = audit.run_many(CI_GAMES, seed=2026, workers=workers, small_tables=True)
    print(stats.line())
    assert stats.games == CI_GAMES
    assert set(stats.roles) == {"werewolf", "villager", "seer", "witch", "hunter", "cupid"}
    every_step = {"cupid", "seer", "werewolves", "witch", "dawn", "hunter", "succession",
                  "election", "debate", "vote", "tiebreak"}
    # The deals are the server's own draws, so a rare step (a tie with a living Captain)
    # can be missing from one batch: play on, a little, until every step has been audited.
    for extra in range(1, 6):
        if every_step <= set(stats.steps):
            break
        more = audit.run_many(20, seed=2026 + extra, workers=workers, small_tables=True)
        stats.steps.update(more.steps)
        stats.views_checked += more.views_checked
    assert every_step <= set(stats.steps)
    assert min(stats.sizes) == 6 and max(stats.sizes) >= 16
    assert stats.views_checked > CI_GAMES * 50 and stats.refusals_compared > CI_GAMES


def _leaky_known_roles(original):
    def known_roles(game, seat):
        known = original(game, seat)
        if seat is not None and game.status == "running":
            other = next(p for p in game.players if p.alive and p.seat != seat)
            known[other.seat] = other.role  # one living player's card too many
        return known
    return known_roles


def _leaky_channels(original):
    def readable_channels(game, seat):
        return ["village", "werewolves", "dead"]  # everybody reads everything
    return readable_channels


def _leaky_refusal(original):
    from werewolf.engine import IllegalAction

    def apply(game, seat, body, now):
        try:
            original(game, seat, body, now)
        except IllegalAction as e:
            if e.code == "not_your_turn":
                e.message += f" (you are a {game.player(seat).role})"
            raise
    return apply


@pytest.mark.parametrize("target,name,leak", [
    ("werewolf.engine.views", "known_roles", _leaky_known_roles),
    ("werewolf.engine.views", "readable_channels", _leaky_channels),
    ("werewolf.engine", "apply", _leaky_refusal),
])
def test_the_oracle_catches_a_planted_leak(monkeypatch, target, name, leak):
    import importlib
    module = importlib.import_module(target)
    monkeypatch.setattr(module, name, leak(getattr(module, name)))
    with pytest.raises(audit.Leak) as caught:
        audit.run(5, seed=7, probe_rate=0.5)
    print(caught.value)
