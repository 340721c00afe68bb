"""Ready-made tables (RULES-VARIANTS A7.5), as data.

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

for _preset in PRESETS:
    registry.register_preset(_preset)
