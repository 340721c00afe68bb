"""One module per table option (RULES-VARIANTS A5-A7), each registering itself."""

from . import spectators  # noqa: F401
from . import tie, secret_ballot  # noqa: F401,I001
