"""Three Brothers — Trois Frères (RULES-BOX B3.12): three cards; they know each other and
confer on odd nights in channel `brothers` (the rules are the family's, ``family.py``)."""

from ._family import family

ID = "brother"
ROLE = family(ID, "brothers", cards=3, emoji="👬", night_order=27)   # after sisters (26), before seer (30)
