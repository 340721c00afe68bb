"""The Rusty Sword Knight — Chevalier à l'épée rouillée (RULES-BOX B3.9): one test per rule and decision."""
from rolekit import RoleTable, recorder

from werewolf import engine
from werewolf.engine import powers

# seat 1 wolf, 2 villager, 3 Knight, 4 villager, 5 wolf, 6 Seer, 7 Witch, 8 Guard, 9 villager
CARDS = "W V knight V W seer witch guard V"


def devour(t, target, wolves=(1, 5)):
    t.until("werewolves")
    for wolf in wolves:
        if t.alive(wolf):
            t.do(wolf, "werewolves.designate", target)


def next_night(t):
    t.until("werewolves")


def test_off_by_default_no_step():
    assert engine.default_settings()["roles"].get("knight", False) is False
    assert engine.registry.ROLES["knight"].steps == ()


def test_devoured_he_rusts_the_first_pack_member_on_his_left_who_dies_the_next_night():
    t = RoleTable(CARDS)
    devour(t, 3)
    t.until("dawn")
    assert not t.alive(3)
    rust = t.last("knight_rust")
    assert rust["audience"] == "end" and rust["seat"] == 5 and rust["night"] == 1
    next_night(t)
    assert t.alive(5) and engine.actors(t.game) == [1, 5], "he acts as usual, with the pack"
    t.do(1, "werewolves.designate", 9)
    t.do(5, "werewolves.designate", 9)
    t.until("dawn")
    assert not t.alive(5) and not t.alive(9)
    assert sorted(d["seat"] for d in t.last("deaths")["deaths"]) == [5, 9]
    assert {d["cause"] for d in t.last("deaths")["deaths"]} == {"night"}, "cause hidden"


def test_the_scan_wraps_around_the_table():
    t = RoleTable("V W knight V V seer witch guard W")
    devour(t, 3, wolves=(2, 9))
    t.until("dawn")
    assert t.last("knight_rust")["seat"] == 9
    t2 = RoleTable("W V V V V seer witch guard knight")
    devour(t2, 9, wolves=(1,))
    t2.until("dawn")
    assert t2.last("knight_rust")["seat"] == 1


def test_the_scan_is_over_the_living_after_the_batch():
    t = RoleTable(CARDS)
    devour(t, 3)
    t.until("witch")
    t.do(7, "witch.poison", 5)
    t.do(7, "witch.done")
    t.until("dawn")
    assert not t.alive(5) and t.last("knight_rust")["seat"] == 1


def test_nobody_is_told_during_play():
    t = RoleTable(CARDS)
    devour(t, 3)
    t.until("dawn")
    for seat in (None, *range(1, 10)):
        assert not [e for e in t.view(seat)["events"] if e["kind"] == "knight_rust"]
    engine.stop(t.game, t.now)
    assert [e["seat"] for e in t.view(2)["events"] if e["kind"] == "knight_rust"] == [5]


def test_no_rust_when_he_dies_another_way():
    poisoned = RoleTable(CARDS)
    poisoned.until("witch")
    poisoned.do(7, "witch.poison", 3)
    poisoned.do(7, "witch.done")
    poisoned.until("dawn")
    assert not poisoned.alive(3) and poisoned.events("knight_rust") == []
    voted = RoleTable(CARDS)
    voted.until("werewolves")
    voted.say(1, "werewolves", "...")
    voted.timeout()
    voted.to_vote()
    voted.vote_all({2: 3})
    assert not voted.alive(3) and voted.events("knight_rust") == []


def test_saved_by_the_witch_but_poisoned_he_did_not_die_as_the_victim():
    t = RoleTable("W V knight V W seer witch guard V")
    devour(t, 3)
    t.until("witch")
    t.do(7, "witch.save")
    t.do(7, "witch.poison", 3)
    t.do(7, "witch.done")
    t.until("dawn")
    assert not t.alive(3) and t.events("knight_rust") == []


def test_protected_he_does_not_die_nor_rust():
    t = RoleTable(CARDS)
    t.until("guard")
    t.do(8, "guard.protect", 3)
    devour(t, 3)
    t.until("dawn")
    assert t.alive(3) and t.events("knight_rust") == []


def test_powerless_no_rust():
    t = RoleTable(CARDS)
    powers.take_powers(t.game, [3])
    devour(t, 3)
    t.until("dawn")
    assert not t.alive(3) and t.events("knight_rust") == []


def test_no_protection_or_potion_stops_the_rust():
    t = RoleTable(CARDS)
    devour(t, 3)
    t.until("dawn")
    t.until("guard")
    t.do(8, "guard.protect", 5)
    t.until("werewolves")
    t.do(1, "werewolves.designate", 5)
    t.do(5, "werewolves.designate", 5)
    t.do(7, "witch.save")
    t.until("dawn")
    assert not t.alive(5)


def test_the_possessed_is_no_werewolf_for_the_rust_and_a_joined_member_is():
    t = RoleTable("W V knight possessed W seer witch guard V")
    devour(t, 3)
    t.until("dawn")
    assert t.last("knight_rust")["seat"] == 5
    t2 = RoleTable("W V knight hound V seer witch guard V")
    t2.until("wolf_hound")
    t2.do(4, "wolf_hound.wolves")
    devour(t2, 3, wolves=(1, 4))
    t2.until("dawn")
    assert t2.last("knight_rust")["seat"] == 4


def test_the_rusted_already_dead_by_the_next_night_nothing_more():
    t = RoleTable(CARDS)
    devour(t, 3)
    t.until("dawn")
    t.to_vote()
    t.vote_all({2: 5, 4: 5, 6: 5})
    assert not t.alive(5)
    next_night(t)
    t.do(1, "werewolves.designate", 9)
    t.until("dawn")
    assert [d["seat"] for d in t.last("deaths")["deaths"]] == [9]


# --- B9.2: "the pack members at a and b swapped, a being the Knight's first pack member to the
# left in the first game and b in the second -> every seat but a and b, until the next dawn"
def play_differential(father):
    cards = ["V", "V", "knight", "V", "V", "seer", "witch", "guard", "V"]
    cards[father - 1], cards[(1 if father == 4 else 4) - 1] = "father", "W"
    t = RoleTable(" ".join(cards))
    seen, record = recorder(t, (None, 2, 6, 7, 8, 9))
    while t.game.day < 2 and t.game.status == "running":
        record()
        if t.step == "werewolves" and t.game.night == 1:
            for wolf in (1, 4):
                t.do(wolf, "werewolves.designate", 3)
        else:
            t.timeout()
    assert t.last("knight_rust")["seat"] == 4
    return seen


def test_differential_nobody_learns_whom_the_rust_took():
    # The Wolf-Father and a werewolf at 4 and 1 swapped: seat 4, the first on the Knight's left,
    # is rusted, a different card each time.
    assert play_differential(4) == play_differential(1)
