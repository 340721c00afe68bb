"""One module per table option (RULES-VARIANTS A5-A7), each registering itself.

One import a line (the order does not matter: hooks run in (priority, id) order)."""
# ruff: noqa: I001, F401

from . import spectators
from . import tie
from . import secret_ballot
