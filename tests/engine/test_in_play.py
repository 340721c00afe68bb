"""What a game keeps in memory besides its state: the hooks in play, the memo of seats.

A game calls only the hooks of the cards it dealt and of the options it set
(registry.in_play); the living, the living wolves and each card's seats are memoized
between deaths and card changes. None of it may change how a game plays or what it
stores."""
import copy
import json
import random

from playkit import body_for, option_values
from rolekit import RoleTable

from werewolf import engine
from werewolf.engine import registry

NAMES = [f"P{i}" for i in range(1, 19)]


def _every_hook(cards, settings):
    """registry.in_play as if every role were dealt and every option set."""
    return registry.InPlay(hooks=dict(registry._hook_fns), sides=dict(registry.SIDES))


def _random_settings(rng: random.Random) -> tuple[int, dict]:
    """A table of 6-18 with any roles on or off (the base cards too) and any option values."""
    while True:
        n = rng.randint(engine.MIN_PLAYERS, engine.MAX_PLAYERS)
        options = {option.id: rng.choice(option_values(option)) for option in registry.OPTIONS.values()}
        settings = {"roles": {role: rng.random() < 0.5 for role in registry.optional_roles()},
                    "captain": rng.random() < 0.7, "options": options}
        try:
            engine.check_start(engine.merge_settings(engine.default_settings(), settings), n)
        except engine.IllegalAction:
            continue
        return n, settings


def _play(n: int, settings: dict, seed: int) -> tuple[str, list]:
    """A whole random game: its stored state at the end, and every seat's view now and then."""
    rng = random.Random(seed)
    now = 1_800_000_000.0
    game = engine.new_game(NAMES[:n], settings, seed, now)
    seen = []
    for move in range(3000):
        if game.status != "running":
            break
        if move % 20 == 0:
            seen.append([engine.view_for(game, seat, now) for seat in [None, *range(1, n + 1)]])
        offers = [(seat, spec) for seat in engine.actors(game) for spec in engine.legal_actions(game, seat)]
        if not offers or rng.random() < 0.15:
            now = game.deadline
            engine.advance(game, now)
            continue
        seat, spec = rng.choice(offers)
        now += rng.random()
        engine.apply(game, seat, body_for(rng, spec), now)
    assert game.status == "ended"
    return game.to_json(), seen


def test_a_game_plays_the_same_with_only_its_hooks_in_play_as_with_every_hook(monkeypatch):
    """A hook left out of a game (a card not dealt, an option at its default) must have
    done nothing there: the same moves give the same state and the same views."""
    rng = random.Random(20261201)
    tables = [_random_settings(rng) for _ in range(24)]
    tables.append((18, engine.default_settings()))
    played = [_play(n, settings, seed) for seed, (n, settings) in enumerate(tables)]
    monkeypatch.setattr(registry, "in_play", _every_hook)
    for seed, ((n, settings), (state, views)) in enumerate(zip(tables, played)):
        assert _play(n, settings, seed) == (state, views), (n, settings)


def test_the_hooks_in_play_follow_the_deal_and_the_options():
    base = RoleTable("W V V V seer witch")
    guarded = RoleTable("W V V V seer guard", options={"seer_camp": True})
    attack = {fn.__module__.rsplit(".", 1)[1] for fn in guarded.game.hooks("night_attack")}
    assert attack == {"guard", "witch"}   # the Witch's base hooks act in every game
    assert {fn.__module__ for fn in base.game.hooks("night_attack")} == {"werewolf.engine.roles.witch"}
    assert base.game.hooks("prompt") == ()
    assert [fn.__module__ for fn in guarded.game.hooks("prompt")] == ["werewolf.engine.options.seer_camp"]
    spying = RoleTable("W V V V seer lg")
    assert [side.steps for side in spying.game.in_play.sides["werewolves"]] == [("werewolves", "night")]
    assert "werewolves" not in base.game.in_play.sides or base.game.in_play.sides["werewolves"] == ()


def test_the_hooks_in_play_are_never_stored_and_come_back_with_the_game():
    t = RoleTable("W V V V seer guard", options={"seer_camp": True})
    state = t.game.to_dict()
    assert "in_play" not in state and "in_play" not in json.loads(t.game.to_json())
    restored = engine.Game.from_dict(json.loads(t.game.to_json()))
    assert restored == t.game and restored.to_dict() == state
    assert restored.hooks("prompt") == t.game.hooks("prompt") != ()
    assert copy.deepcopy(t.game).hooks("night_attack") == t.game.hooks("night_attack")
    # Other settings, other hooks: a game never answers with another game's.
    plain = engine.Game.from_dict({**t.game.to_dict(), "settings": {**state["settings"], "options": {}}})
    assert plain.hooks("prompt") == ()


def test_the_living_wolves_and_each_cards_seats_follow_a_card_changing_hands():
    """The memo of seats is emptied by a card change (a bite, the Thief's swap) as by a death."""
    t = RoleTable("W V V V seer cursed")
    game = t.game
    assert game.living_wolves() == [1] and game.seats_with("cursed") == [6]
    game.player(6).role = "werewolf"          # what the bite does
    assert game.living_wolves() == [1, 6]
    assert game.seats_with("cursed") == [] and game.holder("cursed") is None
    game.player(1).alive = False
    assert game.living_wolves() == [6]
    game.living_wolves().append(3)            # a caller's list is its own
    game.seats_with("werewolf").append(3)
    assert game.living_wolves() == [6] and game.seats_with("werewolf") == [1, 6]


def test_legal_actions_follow_a_death_and_a_new_step():
    """The prompt is rebuilt from the state at every call: a death or a new step shows at once."""
    t = RoleTable("W V V V seer witch", captain=False)
    t.until("werewolves")
    before = engine.legal_actions(t.game, 1)[0]["choices"]
    assert 3 in before
    t.game.player(3).alive = False
    assert 3 not in engine.legal_actions(t.game, 1)[0]["choices"]
    assert engine.legal_actions(t.game, 2) == []
    t.do(1, "werewolves.designate", 4)   # the pack's choice ends its step
    assert t.step == "witch"
    assert engine.legal_actions(t.game, 1) == [] and engine.legal_actions(t.game, 6) != []
