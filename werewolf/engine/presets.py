"""Ready-made tables (RULES-VARIANTS A7.5, RULES-BOX B7.2), as data.

Each preset lists, by table size, its cards (besides the wolves and the Villagers who fill
the rest), its Captain, its options and its rhythm. "w" (``WOLF_TABLE``) is RULES.md §1's
table. Every preset is registered, but one is *usable* (accepted in settings, listed by
the catalog) only while every role and option it names is registered with that value
allowed (``registry.preset_usable``): the presets join by themselves as their roles and
options are built, and never start a game that would silently lack one.
"""

from . import registry
from .registry import Preset

WOLF_TABLE = None   # the wolves of RULES.md §1 for the number seated

# (first size, last size, wolves, cards) — ``freemason`` is one entry: its role gives two cards.
_BASE = ("seer", "witch", "hunter", "cupid")
PRESETS = (
    Preset("classique", (6, 18), ((6, 18, WOLF_TABLE, _BASE),), captain=True),
    Preset("decouverte", (6, 18), ((6, 18, WOLF_TABLE, ("seer",)),), captain=True),
    Preset("eclair", (6, 18), ((6, 8, WOLF_TABLE, ("seer", "witch")),
                               (9, 18, WOLF_TABLE, ("seer", "witch", "hunter"))),
           captain=False, rhythm="rapide"),
    Preset("thiercelieux", (6, 18), ((6, 7, 1, ("seer", "witch", "thief", "little_girl")),
                                     (8, 18, WOLF_TABLE, (*_BASE, "thief", "little_girl"))),
           captain=True, options={"tie": "revote"}),
    Preset("forum", (6, 18), (
        (6, 7, 1, ("guard", "hunter", "freemason")),
        (8, 9, 2, ("guard", "hunter", "cupid", "freemason")),
        (10, 11, 2, ("possessed", "guard", "hunter", "cupid", "freemason")),
        (12, 12, 3, ("possessed", "owl_man", "guard", "hunter", "cupid", "freemason")),
        (13, 15, 3, ("possessed", "owl_man", "guard", "hunter", "cupid", "medium", "freemason")),
        (16, 18, 4, ("possessed", "owl_man", "guard", "hunter", "cupid", "medium", "freemason"))),
        captain=True, options={"lovers_channel": True, "testament": True}),
    Preset("solitaires", (6, 18), (
        (6, 7, 1, ("seer", "witch", "jester")),
        (8, 11, 2, ("seer", "witch", "hunter", "cursed", "jester")),
        (12, 18, WOLF_TABLE, ("seer", "witch", "hunter", "cursed", "jester", "plague_bearer"))),
        captain=False, options={"seer_camp": True, "witch_one_potion": True, "secret_ballot": True,
                                "tie": "runoff", "fixed_night": True, "poisoned_hunter_silent": True,
                                "hunter_vote_shot_first": True}),
    Preset("chinois", (8, 18), ((8, 18, WOLF_TABLE, (*_BASE, "thief", "little_girl")),),
           captain=True, options={"tie": "none", "lovers_no_cross_vote": True, "witch_no_self_save": True}),
)

# RULES-BOX B7.2: the boxes' own cards. The Wolf-Father takes one of the wolves' places
# (B1.2), so "2 (1 werewolf + wolf_father)" is 2 wolves with `wolf_father` among the cards;
# `sister` and `brother` are one entry each (two and three cards).
_NOUVELLE_LUNE = ("seer", "witch", "guard", "elder", "scapegoat", "village_idiot")
_PERSONNAGES = ("wolf_father", "seer", "witch", "fox", "bear_tamer", "knight", "wild_child")
_PERSONNAGES_16 = ("wolf_father", "white_werewolf", "seer", "witch", "fox", "bear_tamer", "knight",
                   "wild_child", "raven", "brother")
_GRANDE_TABLE = ("wolf_father", "white_werewolf", "seer", "witch", "hunter", "cupid", "guard", "elder",
                 "fox", "knight", "sister")
BOX_PRESETS = (
    Preset("nouvelle_lune", (8, 18), (
        (8, 9, 2, _NOUVELLE_LUNE),
        (10, 11, 2, (*_NOUVELLE_LUNE, "hunter", "cupid")),
        (12, 15, 3, (*_NOUVELLE_LUNE, "hunter", "cupid", "piper")),
        (16, 18, 4, (*_NOUVELLE_LUNE, "hunter", "cupid", "piper"))),
        captain=True),
    Preset("personnages", (10, 18), (
        (10, 11, 2, (*_PERSONNAGES, "wolf_hound")),
        (12, 13, 3, (*_PERSONNAGES, "wolf_hound", "sister")),
        (14, 15, 3, (*_PERSONNAGES, "wolf_hound", "sister", "raven", "angel")),
        (16, 16, 4, _PERSONNAGES_16),
        (17, 18, 4, (*_PERSONNAGES_16, "wolf_hound", "angel"))),
        captain=True),
    Preset("grande_table", (16, 18), (
        (16, 16, 4, _GRANDE_TABLE),
        (17, 17, 4, (*_GRANDE_TABLE, "bear_tamer")),
        (18, 18, 4, (*_GRANDE_TABLE, "bear_tamer", "raven"))),
        captain=True, rhythm="lent"),
)

for _preset in (*PRESETS, *BOX_PRESETS):
    registry.register_preset(_preset)
