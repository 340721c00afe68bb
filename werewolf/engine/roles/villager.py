"""Villager — Simple Villageois: no power; fills the deck."""

from .. import registry
from ..registry import Role

ROLE = registry.register(Role("villager", emoji="🌾", camp=registry.VILLAGE, optional=False, default=True, base=True))
