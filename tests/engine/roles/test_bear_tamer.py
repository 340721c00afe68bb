"""The Bear Tamer — Montreur d'ours (RULES-BOX B3.8): one test per rule and decision, and B9.2's
differential."""
from rolekit import RoleTable, recorder

from werewolf import engine
from werewolf.engine import pack

# seat 1 wolf, 2 Bear Tamer, 3 Villager... 8 Villager
CARDS = "W bear V seer V V V V"


def dawn(t, victim):
    t.until("werewolves")
    t.wolves_kill(victim)
    t.until("dawn")


def test_a_wolf_neighbour_makes_the_bear_growl_for_everyone_at_dawn_never_naming_him():
    t = RoleTable(CARDS)
    dawn(t, 5)
    growl = t.last("bear_growl")
    assert growl == {**growl, "day": 1, "audience": "all"} and set(growl) == {"kind", "audience", "at", "day"}
    kinds = [e["kind"] for e in t.game.events if e["audience"] != "end"]
    assert kinds.index("bear_growl") > kinds.index("deaths")
    assert any(e["kind"] == "bear_growl" for e in t.view(None)["events"])


def test_no_wolf_neighbour_no_growl_and_nothing_announced():
    t = RoleTable("V bear V seer W V V V")
    dawn(t, 6)
    assert not t.events("bear_growl")


def test_neighbours_are_read_over_the_living_after_the_night_s_deaths():
    t = RoleTable("V bear V W V V V V")
    dawn(t, 3)   # 3 dies: the wolf at 4 becomes his neighbour
    assert t.last("bear_growl")["day"] == 1


def test_he_growls_every_morning_while_it_holds():
    t = RoleTable(CARDS)
    dawn(t, 5)
    dawn(t, 6)
    assert [e["day"] for e in t.events("bear_growl")] == [1, 2]


def test_a_pack_member_himself_infected_the_bear_growls():
    t = RoleTable("V bear V seer W V V V")
    pack.join(t.game, 2, t.now)
    dawn(t, 6)
    assert t.events("bear_growl")


def test_the_possessed_does_not_make_it_growl():
    t = RoleTable("possessed bear V seer W V V V")
    dawn(t, 6)
    assert not t.events("bear_growl")


def test_powerless_or_dead_never():
    t = RoleTable(CARDS)
    engine.powers.take_powers(t.game, [2])
    dawn(t, 5)
    assert not t.events("bear_growl")
    t2 = RoleTable(CARDS)
    dawn(t2, 2)
    assert not t2.events("bear_growl")


def test_differential_bear_tamer_at_a_villager_at_b_same_pack_neighbours():
    """B9.2: Bear Tamer at a, Villager at b vs the reverse, the neighbours of a and of b holding as
    many pack members -> every seat but a and b."""
    seen = []
    for a, b in ((2, 8), (8, 2)):   # both next to the wolf at 1
        cards = CARDS.split()
        cards[a - 1], cards[b - 1] = "bear", "V"
        t = RoleTable(" ".join(cards))
        log, record = recorder(t, [1, 3, 4, 5, 6, 7, None])
        while t.game.day < 3 and t.game.status == "running":
            record()
            if t.step == "werewolves":
                t.wolves_kill(next(s for s in (5, 6, 7) if t.alive(s)))
            else:
                t.timeout()
        seen.append(log)
    assert seen[0] == seen[1]
