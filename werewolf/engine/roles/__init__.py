"""One module per role (and the Captain and the lovers), each registering itself.

The order below is the deck's order (the deck a seed shuffles: a card's place there is
kept for the recorded games) and breaks ties between hooks of equal priority only through
their ids. A new card is its module alone: the loop at the end imports it after these.
"""

# ruff: noqa: I001  (the import order is the deck order: never sort it)
from . import werewolf, villager, seer, witch, hunter, cupid, lovers, captain  # noqa: F401  (base game)
from . import thief, guard  # noqa: F401  (RULES-VARIANTS A3)
from . import possessed, cursed, jester, plague_bearer  # noqa: F401  (RULES-VARIANTS A3.4, A3.8-A3.10)
from . import little_girl, owl_man, freemason, medium  # noqa: F401  (RULES-VARIANTS A3, part 2)

# A card with no line above joins the deck after them, in the order of its module's name: a
# new card is its module alone (``_template.py`` and other names with "_" are not cards).
import importlib as _importlib
import pkgutil as _pkgutil

for _found in sorted(_pkgutil.iter_modules(__path__), key=lambda info: info.name):
    if not _found.name.startswith("_"):
        _importlib.import_module(f"{__name__}.{_found.name}")
