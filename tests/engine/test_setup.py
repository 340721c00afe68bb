"""RULES.md §1-§2: the table, the wolf table, the deal, settings and time limits."""
import collections

import pytest
from enginekit import T0, Table, settings_for

from werewolf import engine

NAMES = [f"P{i}" for i in range(1, 19)]


@pytest.mark.parametrize("players, wolves", [
    (6, 1), (7, 1), (8, 2), (9, 2), (10, 2), (11, 2), (12, 3), (13, 3), (14, 3), (15, 3),
    (16, 4), (17, 4), (18, 4),
])
def test_wolf_table(players, wolves):
    assert engine.wolf_count(players) == wolves
    game = engine.new_game(NAMES[:players], {}, 7, T0)
    assert game.cards.count("werewolf") == wolves
    assert [p.role for p in game.players].count("werewolf") == wolves


@pytest.mark.parametrize("players", [0, 5, 19, 30])
def test_six_to_eighteen_players(players):
    with pytest.raises(engine.IllegalAction) as refused:
        engine.new_game([f"P{i}" for i in range(players)], {}, 1, T0)
    assert refused.value.code == "bad_player_count"


@pytest.mark.parametrize("players", [6, 11, 18])
def test_deck_has_each_special_once_and_villagers_for_the_rest(players):
    game = engine.new_game(NAMES[:players], {}, 3, T0)
    counts = collections.Counter(p.role for p in game.players)
    for role in engine.OPTIONAL_ROLES:
        assert counts[role] == 1
    assert counts["villager"] == players - engine.wolf_count(players) - 4
    assert sum(counts.values()) == players


def test_removed_roles_become_villagers():
    settings = {"roles": {"seer": False, "cupid": False}}
    game = engine.new_game(NAMES[:8], settings, 3, T0)
    counts = collections.Counter(p.role for p in game.players)
    assert counts == {"werewolf": 2, "witch": 1, "hunter": 1, "villager": 4}


def test_composition_is_public_and_matches_the_deck():
    game = engine.new_game(NAMES[:9], {"roles": {"hunter": False}}, 3, T0)
    expected = {"werewolf": 2, "villager": 4, "seer": 1, "witch": 1, "hunter": 0, "cupid": 1}
    assert engine.composition(game.cards) == expected
    for seat in [None, *range(1, 10)]:
        assert engine.view_for(game, seat, T0)["composition"] == expected
    assert game.events[0]["kind"] == "game_start"
    assert game.events[0]["audience"] == "all"
    assert game.events[0]["composition"] == expected


def test_the_deal_is_determined_by_the_seed():
    a = engine.new_game(NAMES[:12], {}, 12345, T0)
    b = engine.new_game(NAMES[:12], {}, 12345, T0)
    assert [p.role for p in a.players] == [p.role for p in b.players]
    assert a == b


def test_different_seeds_deal_differently():
    deals = {tuple(p.role for p in engine.new_game(NAMES[:12], {}, seed, T0).players)
             for seed in range(40)}
    assert len(deals) > 30


def test_the_deal_is_roughly_uniform():
    """Each seat gets each card about as often as its share of the deck (8 seats)."""
    games = 4000
    counts = collections.Counter()
    for seed in range(games):
        for p in engine.new_game(NAMES[:8], {}, seed, T0).players:
            counts[p.seat, p.role] += 1
    share = {"werewolf": 2 / 8, "villager": 2 / 8, "seer": 1 / 8, "witch": 1 / 8,
             "hunter": 1 / 8, "cupid": 1 / 8}
    for seat in range(1, 9):
        for role, p in share.items():
            expected = games * p
            # 5 standard deviations: a sanity check, not a statistics course.
            sd = (games * p * (1 - p)) ** 0.5
            assert abs(counts[seat, role] - expected) < 5 * sd, (seat, role, counts[seat, role])


def test_huge_and_negative_seeds_are_accepted():
    a = engine.new_game(NAMES[:6], {}, 2**80 + 5, T0)
    b = engine.new_game(NAMES[:6], {}, -1, T0)
    assert a.status == b.status == "running"


def test_default_settings():
    settings = engine.default_settings()
    assert settings["captain"] is True
    assert settings["roles"] == {"seer": True, "witch": True, "hunter": True, "cupid": True}
    assert settings["limits"] == {
        "cupid": 45, "seer": 45, "werewolves": 90, "witch": 45, "dawn": 8, "hunter": 45,
        "succession": 45, "election": 120, "debate": 180, "vote": 60, "tiebreak": 45,
    }


@pytest.mark.parametrize("patch", [
    None, [], {"roles": []}, {"roles": {"werewolf": False}}, {"roles": {"villager": True}},
    {"roles": {"seer": "no"}}, {"roles": {"seer": 0}}, {"captain": "yes"}, {"captain": 1},
    {"limits": {"vote": 0}}, {"limits": {"vote": 3601}}, {"limits": {"vote": 1.5}},
    {"limits": {"vote": True}}, {"limits": {"nap": 10}}, {"limits": []}, {"bots": True},
])
def test_invalid_settings_are_refused_whole(patch):
    current = engine.default_settings()
    with pytest.raises(engine.IllegalAction) as refused:
        engine.merge_settings(current, patch)
    assert refused.value.code == "invalid_settings"
    assert current == engine.default_settings()


def test_merge_settings_keeps_what_the_patch_does_not_name():
    current = engine.default_settings()
    merged = engine.merge_settings(current, {"roles": {"witch": False}, "limits": {"debate": 60}})
    assert merged["roles"] == {"seer": True, "witch": False, "hunter": True, "cupid": True}
    assert merged["limits"]["debate"] == 60 and merged["limits"]["vote"] == 60
    assert merged["captain"] is True
    assert current == engine.default_settings(), "the current settings are not modified"


def test_every_step_starts_with_its_limit():
    limits = {"cupid": 11, "seer": 12, "werewolves": 13, "witch": 14, "dawn": 15,
              "election": 16, "debate": 17, "vote": 18}
    t = Table("W V seer witch hunter cupid", limits=limits)
    seen = {}
    while t.step not in seen and t.step != "tiebreak":
        seen[t.step] = t.game.deadline - t.now
        t.timeout()
    assert seen == {step: float(s) for step, s in limits.items()}


def test_time_scale_multiplies_the_limits():
    game = engine.new_game(NAMES[:6], {}, 1, T0, time_scale=0.5)
    assert game.step == "cupid"
    assert game.deadline == T0 + 45 * 0.5


def test_advance_is_idempotent_before_the_deadline():
    t = Table("W V seer witch hunter cupid")
    assert not engine.advance(t.game, t.game.deadline - 0.001)
    assert t.step == "cupid"
    assert engine.advance(t.game, t.game.deadline)
    assert t.step == "seer"


def test_steps_whose_role_is_not_in_play_are_skipped():
    t = Table("W V V V V V", captain=False)
    assert t.step == "werewolves"
    t.timeout()
    assert t.step == "dawn"
    t.timeout()
    assert t.step == "debate", "no election when the captain is switched off"


def test_steps_whose_role_is_dead_are_skipped():
    t = Table("W W V V seer witch hunter V")
    t.until("werewolves")
    t.wolves_kill(5)                     # the seer
    t.do(6, "witch.done")
    t.until("vote")
    t.vote_all({})
    assert t.step == "werewolves", "the dead Seer's step is skipped"


def test_settings_are_copied_into_the_game():
    settings = settings_for(["werewolf", "villager"], captain=False)
    game = engine.new_game(NAMES[:6], settings, 1, T0)
    assert game.settings["captain"] is False
    assert not any(game.settings["roles"].values())
