"""One module per role (and the Captain and the lovers), each registering itself.

The order below is the deck's order and breaks ties between hooks of equal priority
only through their ids; adding a role is adding its module and its line here.
"""

from . import captain, cupid, guard, hunter, lovers, seer, thief, villager, werewolf, witch  # noqa: F401  (base game)  # noqa: F401  (RULES-VARIANTS A3)
