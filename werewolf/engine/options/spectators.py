"""Spectators (RULES-VARIANTS A7.3): accounts not seated may watch the public view.

Who may watch is decided by the server (it serves ``view_for(game, None)``); the rules
have nothing to do, so the option has no hooks: it is a value the host sets.
"""
from .. import registry

SPECTATORS = registry.register_option(registry.Option(
    id="spectators", default=False, check=lambda value: isinstance(value, bool), group="table"))
