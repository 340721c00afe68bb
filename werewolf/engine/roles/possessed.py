"""Possessed — Possédé (RULES-VARIANTS A3.4): a villager on the wolves' side who does not
know them, and whom they do not know.

No step, no channel, no designation: his card is all he learns. His camp (wolves) is
all the rules need: the end check counts him with the wolves (A4 rule 7), he wins with
them dead or alive, and he makes a couple with a village card mixed.
"""

from .. import registry
from ..registry import Role

ROLE = registry.register(Role("possessed", emoji="😈", camp=registry.WOLVES))
