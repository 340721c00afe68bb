"""A table dealt with chosen cards, the middle's included (the Thief), for role tests."""
import json

from enginekit import CODES, T0, Table

from werewolf import engine

CARDS = {**CODES, "guard": "guard", "thief": "thief", "lg": "little_girl", "owl": "owl_man",
         "mason": "freemason", "medium": "medium"}


class RoleTable(Table):
    """RoleTable("W V V seer witch thief", middle="W V"): seat 1 the wolf..., the middle W then V."""

    def __init__(self, cards: str, middle: str = "", captain: bool = False, seed: int = 1,
                 wolves: int | None = None, extra_roles=(), options: dict | None = None):
        seats = [CARDS[c] for c in cards.split()]
        centre = [CARDS[c] for c in middle.split()]
        every = seats + centre
        roles = {r: r in every for r in engine.registry.optional_roles()}
        settings = {"roles": roles, "captain": captain, "wolves": wolves or every.count("werewolf")}
        if options:
            settings["options"] = options
        names = [f"P{i}" for i in range(1, len(seats) + 1)]
        self.now = T0
        self.game = engine.new_game(names, settings, seed, self.now, dealt=every)
        assert [p.role for p in self.game.players] == seats and self.game.middle() == centre


def recorder(t: Table, seats):
    """For an A9.2 differential: ``record()`` appends what these seats see now (view JSON and
    version); two games are identical to them when their ``seen`` lists are equal."""
    seen = []

    def record():
        seen.append({seat: (json.dumps(t.view(seat), sort_keys=True), t.game.version_for(seat)) for seat in seats})
    return seen, record
