"""Ready-made tables (RULES-VARIANTS A7.5). Only the presets whose every card and option
is built are registered; the others (`thiercelieux`, `forum`, `solitaires`, `chinois`)
join as their roles and options do."""

from . import registry
from .registry import Preset


def _cards(*roles):
    return lambda players: {"roles": set(roles), "captain": True}


def _eclair(players: int) -> dict:
    roles = {"seer", "witch"} | ({"hunter"} if players >= 9 else set())
    return {"roles": roles, "captain": False}


registry.register_preset(Preset("classique", (6, 18), _cards("seer", "witch", "hunter", "cupid")))
registry.register_preset(Preset("decouverte", (6, 18), _cards("seer")))
registry.register_preset(Preset("eclair", (6, 18), _eclair, rhythm="rapide"))
