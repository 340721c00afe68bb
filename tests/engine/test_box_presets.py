"""The boxes' presets (RULES-BOX B7.2), written from the rule book's table: usable now that
their cards are built, their cards by size, and the decks they deal."""
import pytest

from werewolf import engine
from werewolf.engine import registry
from werewolf.engine.rules import preset_composition

NAMES = [f"P{i}" for i in range(1, 19)]
BOX = ("nouvelle_lune", "personnages", "grande_table")


def compose(preset: str, n: int) -> dict:
    got = preset_composition(registry.PRESETS[preset], n)
    return {**got, "roles": sorted(got["roles"])}


def deal(preset: str, n: int) -> list[str]:
    settings = engine.merge_settings(engine.default_settings(), {"preset": preset})
    game = engine.new_game(NAMES[:n], engine.effective_settings(settings, n), 1, 0.0)
    return sorted(game.cards)


def test_the_three_are_usable_with_their_sizes_captain_and_rhythm():
    usable = {p.id for p in registry.usable_presets()}
    assert set(BOX) <= usable
    presets = registry.PRESETS
    assert [presets[p].sizes for p in BOX] == [(8, 18), (10, 18), (16, 18)]
    assert all(presets[p].captain and presets[p].options == {} for p in BOX)
    assert [presets[p].rhythm for p in BOX] == ["classique", "classique", "lent"]


def test_nouvelle_lune_by_size():
    first = ["elder", "guard", "scapegoat", "seer", "village_idiot", "witch"]
    assert compose("nouvelle_lune", 8) == {"roles": first, "wolves": 2, "captain": True, "options": {}}
    assert compose("nouvelle_lune", 11)["roles"] == sorted([*first, "hunter", "cupid"])
    assert compose("nouvelle_lune", 12) == {"roles": sorted([*first, "hunter", "cupid", "piper"]), "wolves": 3,
                                            "captain": True, "options": {}}
    assert compose("nouvelle_lune", 16)["wolves"] == 4
    assert "villager" not in deal("nouvelle_lune", 10), "at 10 no Villager"


def test_personnages_by_size_the_wolf_father_in_a_wolf_s_place():
    base = ["bear_tamer", "fox", "knight", "seer", "wild_child", "witch", "wolf_father"]
    assert compose("personnages", 10) == {"roles": sorted([*base, "wolf_hound"]), "wolves": 2, "captain": True,
                                          "options": {}}
    assert deal("personnages", 10).count("werewolf") == 1 and deal("personnages", 10).count("wolf_father") == 1
    assert compose("personnages", 12)["roles"] == sorted([*base, "wolf_hound", "sister"])
    assert "villager" not in deal("personnages", 12), "at 12 no Villager"
    assert compose("personnages", 14)["roles"] == sorted([*base, "wolf_hound", "sister", "raven", "angel"])
    assert compose("personnages", 16) == {
        "roles": sorted([*base, "white_werewolf", "raven", "brother"]), "wolves": 4, "captain": True, "options": {}}
    sixteen = deal("personnages", 16)
    assert sixteen.count("werewolf") == 3 and sixteen.count("brother") == 3 and sixteen.count("villager") == 1
    assert compose("personnages", 18)["roles"] == sorted([*base, "white_werewolf", "raven", "brother",
                                                          "wolf_hound", "angel"])


def test_grande_table_at_18_is_the_book_s_table():
    assert deal("grande_table", 18) == sorted(
        ["werewolf"] * 3 + ["wolf_father", "white_werewolf", "seer", "witch", "hunter", "cupid", "guard", "elder",
                            "fox", "knight", "bear_tamer", "raven", "sister", "sister", "villager"])
    assert "bear_tamer" not in compose("grande_table", 16)["roles"] and "raven" not in compose("grande_table", 17)["roles"]
    assert registry.PRESETS["grande_table"].rhythm == "lent"


@pytest.mark.parametrize("preset", BOX)
def test_every_size_deals_and_a_start_outside_is_bad_player_count(preset):
    low, high = registry.PRESETS[preset].sizes
    settings = engine.merge_settings(engine.default_settings(), {"preset": preset})
    for n in range(low, high + 1):
        engine.check_start(settings, n)
        assert len(deal(preset, n)) == n
    if low > 6:
        with pytest.raises(engine.IllegalAction) as refused:
            engine.check_start(settings, low - 1)
        assert refused.value.code == "bad_player_count"


def test_the_catalog_lists_them_with_their_villagers_counted_right():
    presets = {p["id"]: p for p in engine.catalog()["presets"]}
    assert presets["grande_table"]["by_size"]["18"]["villagers"] == 1
    assert presets["personnages"]["by_size"]["12"]["villagers"] == 0
    assert presets["nouvelle_lune"]["by_size"]["10"]["villagers"] == 0


def test_a_patch_of_roles_leaves_the_preset():
    settings = engine.merge_settings(engine.default_settings(), {"preset": "personnages"})
    assert settings["rhythm"] == "classique"
    assert engine.merge_settings(settings, {"roles": {"raven": False}})["preset"] is None
    assert engine.merge_settings(engine.default_settings(), {"preset": "grande_table"})["rhythm"] == "lent"
