"""The rules page's words: how a game runs and every role, written from RULES.md.

The page lists the engine's own roles and steps (engine.ROLES, engine.STEPS and their
default limits), so a role added to the engine shows up here; its text is its words file's
RULES (werewolf/web/words/<id>.py); until it is written the role is listed with its name
and a note that its description is still to come.
"""
from babel.lists import format_list
from flask_babel import get_locale
from flask_babel import gettext as _

from .. import engine
from . import words
from .facts import facts


def roles() -> list[dict]:
    """Every role of the engine, in the engine's order, with its words (or none yet)."""
    return [{"id": role, "emoji": engine.registry.ROLES[role].emoji,
             "paragraphs": words.rules_section(role)}
            for role in engine.ROLES]


def wolves() -> str:
    """How many wolves by table size (RULES.md §1), in words, from the engine's catalog."""
    ranges = []  # [wolves, fewest players, most players]
    for players, count in sorted(facts()["wolf_table"].items()):
        if ranges and ranges[-1][0] == count:
            ranges[-1][2] = players
        else:
            ranges.append([count, players, players])
    said = [_("%(wolves)s de %(low)s à %(high)s joueurs", wolves=count, low=low, high=high) for count, low, high in ranges]
    return _("Loups : %(ranges)s.", ranges=format_list(said, locale=get_locale()))


def steps() -> list[dict]:
    return [{"id": step, "limit": engine.DEFAULT_LIMITS[step]} for step in engine.STEPS]
