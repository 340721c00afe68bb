"""One module per table option (RULES-VARIANTS A5-A7), each registering itself.

One import a line (the order does not matter: hooks run in (priority, id) order)."""
# ruff: noqa: I001, F401

from . import spectators
from . import fixed_night
from . import lovers_channel
from . import tie
from . import secret_ballot
from . import seer_camp
from . import witch_one_potion
from . import witch_no_self_save
from . import poisoned_hunter_silent
from . import hunter_vote_shot_first
from . import testament
from . import lovers_no_cross_vote
from . import speech_turns
