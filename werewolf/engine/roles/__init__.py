"""One module per role (and the Captain and the lovers), each registering itself.

The order below is the deck's order and breaks ties between hooks of equal priority
only through their ids; adding a role is adding its module and its line here.
"""

# ruff: noqa: I001  (the import order is the deck order: never sort it)
from . import werewolf, villager, seer, witch, hunter, cupid, lovers, captain  # noqa: F401  (base game)
from . import thief, guard  # noqa: F401  (RULES-VARIANTS A3)
from . import possessed, cursed, jester, plague_bearer  # noqa: F401  (RULES-VARIANTS A3.4, A3.8-A3.10)
from . import little_girl, owl_man, freemason, medium  # noqa: F401  (RULES-VARIANTS A3, part 2)
from . import knight, raven, wolf_father, sister, brother, wolf_hound, angel  # noqa: F401  (RULES-BOX B3.9-B3.14)
