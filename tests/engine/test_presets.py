"""Presets (RULES-VARIANTS A7.5), rhythms (A7.4) and the settings contract (A1.1, A13)."""
import pytest

from werewolf import engine
from werewolf.engine import registry
from werewolf.engine.registry import Option, Role
from werewolf.engine.rules import preset_composition

NAMES = [f"P{i}" for i in range(1, 19)]


def compose(preset: str, n: int) -> dict:
    got = preset_composition(registry.PRESETS[preset], n)
    return {**got, "roles": sorted(got["roles"])}


# A7.5, written from the rule book's table (w = 1/2/3/4 by RULES.md §1).
def test_the_seven_presets_and_their_sizes():
    sizes = {p.id: p.sizes for p in registry.PRESETS.values()}
    assert sizes == {"classique": (6, 18), "decouverte": (6, 18), "eclair": (6, 18), "thiercelieux": (6, 18),
                     "forum": (6, 18), "solitaires": (6, 18), "chinois": (8, 18),
                     # RULES-BOX B7.2
                     "nouvelle_lune": (8, 18), "personnages": (10, 18), "grande_table": (16, 18)}


@pytest.mark.parametrize("n,wolves", [(6, 1), (7, 1), (8, 2), (11, 2), (12, 3), (15, 3), (16, 4), (18, 4)])
def test_classique_decouverte_eclair_follow_the_wolves_table(n, wolves):
    assert compose("classique", n) == {"roles": ["cupid", "hunter", "seer", "witch"], "wolves": wolves,
                                       "captain": True, "options": {}}
    assert compose("decouverte", n) == {"roles": ["seer"], "wolves": wolves, "captain": True, "options": {}}
    eclair = compose("eclair", n)
    assert eclair["roles"] == (["hunter", "seer", "witch"] if n >= 9 else ["seer", "witch"])
    assert eclair["captain"] is False and registry.PRESETS["eclair"].rhythm == "rapide"


def test_thiercelieux_by_size():
    assert compose("thiercelieux", 7) == {"roles": ["little_girl", "seer", "thief", "witch"], "wolves": 1,
                                          "captain": True, "options": {"tie": "revote"}}
    assert compose("thiercelieux", 12)["roles"] == ["cupid", "hunter", "little_girl", "seer", "thief", "witch"]
    assert compose("thiercelieux", 12)["wolves"] == 3


def test_forum_at_15_is_exactly_the_forum_s_village():
    got = compose("forum", 15)
    assert got["wolves"] == 3 and got["options"] == {"lovers_channel": True, "testament": True}
    assert got["roles"] == ["cupid", "freemason", "guard", "hunter", "medium", "owl_man", "possessed"]
    assert compose("forum", 6)["roles"] == ["freemason", "guard", "hunter"] and compose("forum", 6)["wolves"] == 1
    assert "possessed" not in compose("forum", 9)["roles"] and "possessed" in compose("forum", 10)["roles"]
    assert "medium" not in compose("forum", 12)["roles"] and compose("forum", 16)["wolves"] == 4


def test_solitaires_and_chinois():
    assert compose("solitaires", 6)["roles"] == ["jester", "seer", "witch"]
    assert compose("solitaires", 11) == {
        "roles": ["cursed", "hunter", "jester", "seer", "witch"], "wolves": 2, "captain": False,
        "options": {"seer_camp": True, "witch_one_potion": True, "secret_ballot": True, "tie": "runoff",
                    "fixed_night": True, "poisoned_hunter_silent": True, "hunter_vote_shot_first": True}}
    assert "plague_bearer" in compose("solitaires", 12)["roles"] and compose("solitaires", 16)["wolves"] == 4
    assert compose("chinois", 8)["options"] == {"tie": "none", "lovers_no_cross_vote": True,
                                                 "witch_no_self_save": True}
    assert "spectators" not in str([p.options for p in registry.PRESETS.values()])


def test_a_preset_is_usable_once_every_role_and_option_it_names_is_registered(monkeypatch):
    usable = {p.id for p in registry.usable_presets()}
    assert {"classique", "decouverte", "eclair"} <= usable
    for preset in registry.PRESETS.values():
        built = (preset.roles() <= set(registry.ROLES)) and set(preset.options) <= set(registry.OPTIONS)
        assert (preset.id in usable) == built
        if not built:
            with pytest.raises(engine.IllegalAction) as refused:
                engine.merge_settings(engine.default_settings(), {"preset": preset.id})
            assert refused.value.code == "invalid_settings"
    # Once its roles and options are registered (as the helpers building them will), it is accepted.
    for role in registry.PRESETS["thiercelieux"].roles() - set(registry.ROLES):
        monkeypatch.setitem(registry.ROLES, role, Role(role))
    if "tie" not in registry.OPTIONS:
        monkeypatch.setitem(registry.OPTIONS, "tie", Option("tie", "captain", lambda v: v in ("captain", "revote")))
    assert registry.preset_usable(registry.PRESETS["thiercelieux"])
    merged = engine.merge_settings(engine.default_settings(), {"preset": "thiercelieux"})
    assert merged["preset"] == "thiercelieux"
    # A value the registered option does not allow keeps it refused.
    monkeypatch.setitem(registry.OPTIONS, "tie", Option("tie", "captain", lambda v: v == "captain"))
    assert not registry.preset_usable(registry.PRESETS["thiercelieux"])


def test_a_start_outside_the_preset_s_sizes_is_bad_player_count():
    settings = engine.merge_settings(engine.default_settings(), {"preset": "classique"})
    engine.check_start(settings, 6)
    chinois = registry.PRESETS["chinois"]
    with pytest.raises(engine.IllegalAction) as refused:
        engine.check_start({**settings, "preset": "chinois"}, 7)
    assert refused.value.code == "bad_player_count" and chinois.sizes == (8, 18)


def test_a_preset_deals_its_composition_for_the_number_seated():
    for n in (6, 9, 12, 18):
        game = engine.new_game(NAMES[:n], {"preset": "eclair"}, 3, 0.0)
        expected = compose("eclair", n)
        assert game.cards.count("werewolf") == expected["wolves"]
        assert {c for c in game.cards if c not in ("werewolf", "villager")} == set(expected["roles"])
        assert game.settings["captain"] is False and game.settings["limits"]["vote"] == 40


def test_the_effective_settings_show_every_option_with_the_preset_s_values():
    shown = engine.shown_settings({"preset": "classique", "options": {"spectators": True}}, 8)
    assert shown["wolves"] == 2 and shown["options"]["spectators"] is True
    assert shown["options"]["fixed_night"] is False and set(shown["options"]) == set(registry.OPTIONS)


def test_a_patch_of_a_composing_key_leaves_the_preset_rhythm_limits_and_spectators_do_not():
    base = engine.merge_settings(engine.default_settings(), {"preset": "classique"})
    for patch in ({"rhythm": "lent"}, {"limits": {"vote": 30}}, {"options": {"spectators": True}}):
        assert engine.merge_settings(base, patch)["preset"] == "classique", patch
    for patch in ({"roles": {"seer": False}}, {"wolves": 2}, {"captain": False}, {"options": {"fixed_night": True}}):
        assert engine.merge_settings(base, patch)["preset"] is None, patch


# A7.4, written from the rule book: seconds for (rapide, classique, lent).
RHYTHMS = {
    "thief": (30, 45, 90), "cupid": (30, 45, 90), "seer": (30, 45, 90), "guard": (20, 30, 60),
    "owl": (20, 30, 60), "plague": (20, 30, 60), "werewolves": (60, 90, 180), "night": (60, 90, 180),
    "witch": (30, 45, 90), "dawn": (5, 8, 12), "hunter": (30, 45, 90), "succession": (30, 45, 90),
    "election": (60, 120, 240), "debate": (120, 180, 360), "speech": (20, 30, 60), "vote": (40, 60, 120),
    "tally": (6, 10, 15), "defense": (40, 60, 120), "runoff": (30, 45, 90), "revote": (30, 45, 90),
    "stake": (40, 60, 120), "tiebreak": (30, 45, 90),
    # RULES-BOX B7.1 (every new step, those of cards not built yet too)
    **{step: (20, 30, 60) for step in ("wild_child", "wolf_hound", "sisters", "brothers", "fox", "wolf_father",
                                       "white_werewolf", "piper", "raven")},
    "scapegoat": (30, 45, 90),
}
# RULES-BOX B7.1: the new steps.
RHYTHMS.update({step: (20, 30, 60) for step in ("wild_child", "wolf_hound", "sisters", "brothers", "fox",
                                                 "wolf_father", "white_werewolf", "piper", "raven")})
RHYTHMS["scapegoat"] = (30, 45, 90)


@pytest.mark.parametrize("column,rhythm", list(enumerate(("rapide", "classique", "lent"))))
def test_every_registered_step_has_the_rhythm_s_limits(column, rhythm):
    assert set(registry.STEPS) <= set(RHYTHMS), "a step the rhythms table does not know"
    settings = engine.merge_settings(engine.default_settings(), {"rhythm": rhythm})
    shown = engine.shown_settings(settings, 8)["limits"]
    for step in registry.STEPS:
        assert shown[step] == RHYTHMS[step][column], step
