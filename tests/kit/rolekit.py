"""A table dealt with chosen cards, the middle's included (the Thief), for role tests."""
from enginekit import CODES, T0, Table

from werewolf import engine

CARDS = {**CODES, "guard": "guard", "thief": "thief"}


class RoleTable(Table):
    """RoleTable("W V V seer witch thief", middle="W V"): seat 1 the wolf..., the middle W then V."""

    def __init__(self, cards: str, middle: str = "", captain: bool = False, seed: int = 1,
                 wolves: int | None = None, extra_roles=(), options: dict | None = None):
        seats = [CARDS[c] for c in cards.split()]
        centre = [CARDS[c] for c in middle.split()]
        every = seats + centre
        roles = {r: r in every for r in engine.registry.optional_roles()}
        settings = {"roles": roles, "captain": captain, "wolves": wolves or every.count("werewolf"),
                    "options": options or {}}
        names = [f"P{i}" for i in range(1, len(seats) + 1)]
        self.now = T0
        self.game = engine.new_game(names, settings, seed, self.now, dealt=every)
        assert [p.role for p in self.game.players] == seats and self.game.middle() == centre
