"""A table dealt with chosen cards, the middle's included (the Thief), for role tests."""
import json

from enginekit import CODES, T0, Table

from werewolf import engine

CARDS = {**CODES, "guard": "guard", "thief": "thief", "lg": "little_girl", "owl": "owl_man",
         "mason": "freemason", "medium": "medium"}
CARDS.update({"possessed": "possessed", "cursed": "cursed", "jester": "jester", "plague": "plague_bearer"})
# RULES-BOX's cards (a code is its id unless shorter is clearer).
CARDS.update({"elder": "elder", "idiot": "village_idiot", "goat": "scapegoat", "piper": "piper",
              "white": "white_werewolf", "child": "wild_child", "fox": "fox", "bear": "bear_tamer",
              "knight": "knight", "raven": "raven", "father": "wolf_father", "sister": "sister",
              "brother": "brother", "hound": "wolf_hound", "angel": "angel"})


class RoleTable(Table):
    """RoleTable("W V V seer witch thief", middle="W V"): seat 1 the wolf..., the middle W then V."""

    def __init__(self, cards: str, middle: str = "", captain: bool = False, seed: int = 1,
                 wolves: int | None = None, extra_roles=(), options: dict | None = None):
        seats = [CARDS[c] for c in cards.split()]
        centre = [CARDS[c] for c in middle.split()]
        every = seats + centre
        roles = {r: r in every for r in engine.registry.optional_roles()}
        wolf_places = sum(1 for r in set(every) if r in engine.registry.ROLES and engine.registry.ROLES[r].wolf_place)
        settings = {"roles": roles, "captain": captain, "wolves": wolves or every.count("werewolf") + wolf_places,
                    "options": options or {}}
        names = [f"P{i}" for i in range(1, len(seats) + 1)]
        self.now = T0
        self.game = engine.new_game(names, settings, seed, self.now, dealt=every)
        assert [p.role for p in self.game.players] == seats and self.game.middle() == centre


def night_steps(t: RoleTable) -> list[str]:
    """The steps of the first night, each left to run out, until dawn."""
    steps = []
    while t.step != "dawn":
        steps.append(t.step)
        t.timeout()
    return steps


def views_of(t: RoleTable, seats) -> dict:
    """What each of these seats sees now: the JSON of its view and its version (A0)."""
    return {seat: (json.dumps(t.view(seat), sort_keys=True), t.game.version_for(seat)) for seat in seats}


def card_swap_views(cards: str, seat: int, role: str, watchers) -> list[dict]:
    """A9.2's "role at a, Villager at b vs the reverse": deal ``cards`` with ``role`` at
    ``seat``, play to day 3 (the wolves talk and devour 5, then 6...; every other step runs
    out), and record what the watchers see at every step."""
    dealt = cards.split()
    dealt[seat - 1] = role
    t = RoleTable(" ".join(dealt), captain=True)
    seen = []
    while t.game.day < 3:
        seen.append(views_of(t, watchers))
        if t.step == "werewolves":
            t.say(t.game.living_wolves()[0], "werewolves", "hungry")
            t.wolves_kill(next(s for s in (5, 6, 7, 8) if t.alive(s)))
        else:
            t.timeout()
    return seen


def recorder(t: Table, seats):
    """For an A9.2 differential: ``record()`` appends what these seats see now (view JSON and
    version); two games are identical to them when their ``seen`` lists are equal."""
    seen = []

    def record():
        seen.append({seat: (json.dumps(t.view(seat), sort_keys=True), t.game.version_for(seat)) for seat in seats})
    return seen, record


def swapped_card_sees_alike(cards: str, card: str, seats, a: int = 2, b: int = 3) -> bool:
    """A B9.2 differential: `card` at seat a and a Villager at b, then the reverse; the given
    seats see the same two games until day 3, the wolves devouring 8, 7, 6 in turn."""
    seen = []
    for first, second in ((a, b), (b, a)):
        deck = cards.split()
        deck[first - 1], deck[second - 1] = card, "V"
        t = RoleTable(" ".join(deck))
        log, record = recorder(t, seats)
        while t.game.day < 3 and t.game.status == "running":
            record()
            if t.step == "werewolves":
                t.wolves_kill(next(s for s in (8, 7, 6) if t.alive(s)))
            else:
                t.timeout()
        seen.append(log)
    return seen[0] == seen[1]


def seen_until_day(t: Table, seats, day: int, moves=None) -> list:
    """For a B9.2 differential: what `seats` see at each moment until `day` (or the end).
    `moves`: step -> a function of the table that plays it; the wolves say a word, then
    their step and every other one time out."""
    seen, record = recorder(t, seats)
    moves = moves or {}
    while t.game.day < day and t.game.status == "running":
        record()
        if t.step in moves:
            moves[t.step](t)
        else:
            if t.step == "werewolves":
                t.say(t.game.living_wolves()[0], "werewolves", "...")
            t.timeout()
    return seen
