"""One module per table option (RULES-VARIANTS A5-A7), each registering itself."""

from . import fixed_night, lovers_channel, spectators  # noqa: F401
