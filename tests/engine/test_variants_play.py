"""Random legal play with every registered role and option (or a preset), each game to its end.

What the per-role and per-option tests cannot see: their combinations. A table draws any
subset of the roles, every option at any allowed value (or one of the presets), and a
random player plays it out. Every game must end, no input may raise anything but a
refusal, and no prompt may offer a choice with nothing to choose.
"""
import json
import random

from enginekit import T0
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playkit import body_for, option_values

from werewolf import engine

registry = engine.registry
MAX_INPUTS = 6000
NAMES = [f"P{i}" for i in range(1, engine.MAX_PLAYERS + 1)]


@st.composite
def tables(draw):
    n = draw(st.integers(engine.MIN_PLAYERS, engine.MAX_PLAYERS))
    if draw(st.integers(0, 3)) == 0:
        patch = {"preset": draw(st.sampled_from(sorted(p.id for p in registry.usable_presets())))}
    else:
        patch = {"roles": {role: draw(st.booleans()) for role in registry.optional_roles()},
                 "captain": draw(st.booleans()),
                 "options": {o.id: draw(st.sampled_from(option_values(o))) for o in registry.OPTIONS.values()}}
    settings_ = engine.merge_settings(engine.default_settings(), patch)
    try:
        engine.check_start(settings_, n)
    except engine.IllegalAction:
        patch = {"roles": {role: False for role in registry.optional_roles()}}   # too many cards: a plain table
        settings_ = engine.merge_settings(engine.default_settings(), patch)
    return NAMES[:n], settings_, draw(st.integers(0, 2**32))


def play(game, rng: random.Random, before_each) -> float:
    """Random inputs until the game ends (MAX_INPUTS at most): a legal action, or a time-out
    (always when nothing is offered). ``before_each(offers, now)`` runs before each input.
    Returns the time of the last."""
    now = T0
    for _ in range(MAX_INPUTS):
        offers = [(seat, spec) for seat in engine.actors(game) for spec in engine.legal_actions(game, seat)]
        before_each(offers, now)
        if not offers or rng.random() < 0.15:
            now = game.deadline
            engine.advance(game, now)
        else:
            seat, spec = rng.choice(offers)
            now += rng.random()
            engine.apply(game, seat, body_for(rng, spec), now)
        if game.status == "ended":
            break
    return now


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), seed=st.integers(0, 2**32))
def test_any_roles_and_options_play_to_an_end(table, seed):
    names, settings_, game_seed = table
    game = engine.new_game(names, settings_, game_seed, T0)

    def something_to_choose(offers, now):
        for seat, spec in offers:
            if "choices" in spec and not spec.get("nullable"):
                assert len(spec["choices"]) >= spec.get("count", 1), f"nothing to choose: {spec} in {game.step}"
    now = play(game, random.Random(seed), something_to_choose)
    assert game.status == "ended", f"no end within {MAX_INPUTS} inputs"
    for seat in [None, *range(1, game.n + 1)]:
        json.dumps(engine.view_for(game, seat, now))
    assert engine.Game.from_dict(json.loads(game.to_json())) == game


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), seed=st.integers(0, 2**32))
def test_views_made_together_are_the_views_made_alone(table, seed):
    """engine.views_for shares what the seats see alike (a channel's lines, the events of the
    same audiences) between their views: each must still be exactly that seat's view, at every
    input of a game with talk in every channel (a hook that changed a shared list in place
    would show in another seat's view)."""
    names, settings_, game_seed = table
    rng = random.Random(seed)
    game = engine.new_game(names, settings_, game_seed, T0)
    seats = [None, *range(1, game.n + 1)]

    def talk_then_compare(offers, now):
        for seat in rng.sample(range(1, game.n + 1), 3):
            for channel in engine.writable_channels(game, seat):
                engine.post_chat(game, seat, channel, f"{channel} {rng.random():.3f}", now)
        assert engine.views_for(game, seats, now) == {seat: engine.view_for(game, seat, now) for seat in seats}
    now = play(game, rng, talk_then_compare)
    assert engine.views_for(game, seats, now) == {seat: engine.view_for(game, seat, now) for seat in seats}
