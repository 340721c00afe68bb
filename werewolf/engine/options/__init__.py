"""One module per table option (RULES-VARIANTS A5-A7), each registering itself."""

from . import spectators  # noqa: F401
