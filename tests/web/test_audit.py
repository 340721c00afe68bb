"""The secrecy audit (tests/kit/audit.py) in CI: over 500 random complete games with every
card and option of the registry mixed in, every view of every player checked against
RULES.md §8, RULES-VARIANTS A9 and RULES-BOX B9 by an oracle that reads the full state and
does not use engine.views. Plus proof that the oracle catches leaks.

Each card and option is drawn with probability 1/20 in two games out of three (a few cards,
often none: close to the base game) and 2/5 in the third (many at once: their interactions),
at table sizes leaning towards 6. Some games are played over HTTP (the poll's caches and
ETags, the refusals' bodies, the headers); most on the engine's own calls, four times
cheaper, where the secrecy is decided. A leak names its game's seed: audit.replay(seed, ...)
plays that game again.
"""
import os

import pytest

from tests.conftest import requires_sqlite
from tests.kit import audit

HTTP_GAMES = 90
ENGINE_GAMES = 420
WORKERS = 2 if (os.cpu_count() or 1) >= 2 else 1

# RULES.md's steps, RULES-VARIANTS' (the options' rounds, the variant cards', the fixed night).
BASE_STEPS = {"cupid", "seer", "werewolves", "witch", "dawn", "hunter", "succession",
              "election", "debate", "vote", "tiebreak"}
VARIANT_STEPS = {"thief", "guard", "owl", "plague", "night", "stake", "tally", "defense", "speech"}


def _mixed(games: int, seed: int, engine: bool) -> audit.Stats:
    return audit.run_many(games, seed=seed, workers=WORKERS, small_tables=True, mixed=True, engine=engine)


def _merge(total: audit.Stats, more: audit.Stats) -> None:
    for name in ("games", "requests", "views_checked", "refusals_compared", "chats"):
        setattr(total, name, getattr(total, name) + getattr(more, name))
    for name in ("steps", "roles", "winners", "sizes", "events", "options"):
        getattr(total, name).update(getattr(more, name))


def _every_option_value() -> set[str]:
    from werewolf.engine import registry
    return {f"{option.id}={value}" for option in registry.OPTIONS.values()
            for value in audit.option_choices(option)[1:]}


def _missing(stats: audit.Stats) -> dict:
    """What the games have not audited yet (all must be, every run)."""
    every_card = {"werewolf", "villager", *audit.BASE_OPTIONAL, *audit.registry_cards()}
    return {name: sorted(left) for name, left in (
        ("cards", every_card - set(stats.roles)),
        ("steps", (BASE_STEPS | VARIANT_STEPS) - set(stats.steps)),
        ("ballot rounds", set() if {"revote", "runoff"} & set(stats.steps) else {"revote or runoff"}),
        ("option values", _every_option_value() - set(stats.options)),
        ("events", {"cursed_bitten", "contaminated"} - set(stats.events)),
    ) if left}


@requires_sqlite  # it plays on SQLite files of its own: the SQLite run has done it
def test_five_hundred_random_games_with_every_card_and_option_leak_nothing():
    assert not audit.unknown_to_the_oracle(), "each card and option has its lines in the oracle"
    over_http = _mixed(HTTP_GAMES, seed=2026, engine=False)
    print("over HTTP:", over_http.line())
    assert over_http.games == HTTP_GAMES
    assert over_http.views_checked > HTTP_GAMES * 50 and over_http.refusals_compared > HTTP_GAMES
    assert len(set(over_http.roles)) > 20, over_http.roles   # the web sees most cards too
    stats = _mixed(ENGINE_GAMES, seed=2027, engine=True)
    print("on the engine:", stats.line())
    assert stats.games == ENGINE_GAMES
    _merge(stats, over_http)
    # The games are random: a batch that missed a card, a step or an option's value plays
    # a few more small batches (on the engine: cheap) rather than failing.
    for extra_seed in range(3000, 3006):
        if not _missing(stats):
            break
        _merge(stats, _mixed(20, seed=extra_seed, engine=True))
    print("in all:", stats.line(), dict(stats.events))
    assert stats.games >= 500
    assert not _missing(stats), _missing(stats)
    assert min(stats.sizes) == 6 and max(stats.sizes) >= 16
    assert stats.views_checked > stats.games * 50 and stats.refusals_compared > stats.games


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


@pytest.mark.parametrize("engine", [False, True], ids=["http", "engine"])
@pytest.mark.parametrize("target,name,leak", [
    ("werewolf.engine.views", "known_roles", _leaky_known_roles),
    ("werewolf.engine.views", "readable_channels", _leaky_channels),
    ("werewolf.engine", "apply", _leaky_refusal),
])
def test_the_oracle_catches_a_planted_leak(monkeypatch, target, name, leak, engine):
    import importlib
    module = importlib.import_module(target)
    monkeypatch.setattr(module, name, leak(getattr(module, name)))
    with pytest.raises(audit.Leak) as caught:
        audit.run(5, seed=7, probe_rate=0.5, mixed=True, engine=engine)
    print(caught.value)
    assert "audit.replay(" in str(caught.value), "a leak names its game's seed"
