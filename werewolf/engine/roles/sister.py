"""Two Sisters — Deux Sœurs (RULES-BOX B3.12): two cards; they know each other and confer
on odd nights in channel `sisters` (the rules are the family's, ``family.py``)."""

from ._family import family

ID = "sister"
ROLE = family(ID, "sisters", cards=2, emoji="👭", night_order=26)   # after wolf_hound (24), before seer (30)
