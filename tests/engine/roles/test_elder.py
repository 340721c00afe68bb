"""The Elder — Ancien (RULES-BOX B3.1): one test per rule and decision, and B9.2's differential."""
from rolekit import RoleTable, recorder

from werewolf import engine

# seat 1 wolf, 2 Elder, 3 Villager, 4 Seer, 5 Guard, 6 Witch, 7 Hunter, 8 Villager
CARDS = "W elder V seer guard witch hunter V"


def night_one(t, victim, witch=None, poison=None, guard=None):
    t.until("guard")
    if guard is not None:
        t.do(5, "guard.protect", guard)
    t.until("werewolves")
    t.wolves_kill(victim)
    if witch == "save":
        t.do(6, "witch.save")
    if poison is not None:
        t.do(6, "witch.poison", poison)
    t.do(6, "witch.done")
    assert t.step == "dawn"


def test_the_first_attack_spends_his_life_and_nobody_is_told():
    t = RoleTable(CARDS)
    night_one(t, 2)
    assert t.alive(2) and t.last("deaths")["deaths"] == []
    assert t.game.extra["elder"]["life"] is False
    assert set(t.view(2)["me"]) == {"seat", "name", "role", "alive", "captain"} and not t.events("elder_revenge")


def test_the_second_attack_kills_him_without_revenge():
    t = RoleTable(CARDS)
    night_one(t, 2)
    t.until("werewolves")
    t.wolves_kill(2)
    t.do(6, "witch.done")
    assert not t.alive(2) and not t.events("elder_revenge") and "powerless" not in t.game.extra


def test_a_guard_s_protection_does_not_spend_the_life():
    t = RoleTable(CARDS)
    night_one(t, 2, guard=2)
    assert t.alive(2) and t.game.extra["elder"]["life"] is True


def test_the_witch_learns_him_as_the_victim_and_her_save_does_not_spend_the_life():
    t = RoleTable(CARDS)
    t.until("werewolves")
    t.wolves_kill(2)
    assert t.last("witch_victim")["target"] == 2
    t.do(6, "witch.save")
    t.do(6, "witch.done")
    assert t.alive(2) and t.game.extra["elder"]["life"] is True


def test_the_poison_kills_him_at_once_and_takes_the_village_s_powers():
    t = RoleTable(CARDS)
    night_one(t, 3, poison=2)
    assert not t.alive(2)
    revenge = t.last("elder_revenge")
    assert revenge["seat"] == 2 and revenge["audience"] == "all"
    kinds = [e["kind"] for e in t.game.events if e["audience"] != "end"]
    assert kinds.index("elder_revenge") == kinds.index("deaths") + 1   # announced right after the deaths
    assert {4, 5, 6, 7, 8} <= set(engine.powers.powerless(t.game)) and 1 not in engine.powers.powerless(t.game)


def test_devoured_and_poisoned_the_same_night_he_dies_and_the_revenge_applies():
    t = RoleTable(CARDS)
    night_one(t, 2, poison=2)
    assert not t.alive(2) and t.last("elder_revenge")["seat"] == 2


def test_voted_out_he_takes_the_village_s_powers_ghost_steps_follow():
    t = RoleTable(CARDS)
    night_one(t, 3)
    t.to_vote()
    t.vote_all({s: 2 for s in t.game.living()})
    assert not t.alive(2) and t.last("elder_revenge")["seat"] == 2
    assert t.view(6)["me"]["potions"] == {"life": False, "death": False}
    t.until("seer")
    assert engine.actors(t.game) == [] and t.view(4)["prompt"] is None
    t.until("guard")
    assert engine.actors(t.game) == []
    t.until("werewolves")
    assert engine.actors(t.game) == [1]   # the pack keeps its powers
    t.wolves_kill(8)
    assert t.step == "witch" and engine.actors(t.game) == [] and not t.events("witch_victim")[1:]


def test_a_hunter_s_shot_at_him_is_revenge_and_a_powerless_hunter_shoots_nobody():
    t = RoleTable(CARDS)
    night_one(t, 7)
    t.until("hunter")
    assert t.game.actor == 7
    t.do(7, "hunter.shoot", 2)
    assert not t.alive(2) and t.last("elder_revenge")["seat"] == 2
    t2 = RoleTable(CARDS)
    night_one(t2, 3, poison=2)   # revenge first
    t2.until("werewolves")
    t2.wolves_kill(7)
    t2.until("hunter")
    assert engine.actors(t2.game) == [7] and t2.view(7)["prompt"] is None   # a ghost hunter step
    t2.timeout()
    assert t2.last("hunter_shot")["target"] is None


def test_dead_of_grief_no_revenge():
    t = RoleTable("W elder cupid seer V V V V")
    t.until("cupid")
    t.do(3, "cupid.pair", targets=[2, 4])
    t.until("werewolves")
    t.wolves_kill(4)
    t.until("dawn")
    assert not t.alive(2) and not t.events("elder_revenge")


def test_the_seer_sees_the_elder_and_the_end_tells_the_spent_life():
    t = RoleTable(CARDS)
    t.until("seer")
    t.do(4, "seer.look", 2)
    assert t.view(4)["players"][1]["role"] == "elder"
    t.until("werewolves")
    t.wolves_kill(2)
    t.do(6, "witch.done")
    engine.stop(t.game, t.now)
    assert t.events("night_summary")[0]["elder_life"] == 2


def test_differential_his_spent_life_vs_a_saved_victim():
    """B9.2: the wolves' choice is the Elder E, not protected, not saved vs the wolves' choice is D
    and the Witch saves D -> every seat but the pack and the Witch, until E is attacked again."""
    watchers = [2, 3, 4, 5, 7, 8]
    seen = []
    for victim, save in ((2, False), (3, True)):
        t = RoleTable(CARDS)
        log, record = recorder(t, [*watchers, None])
        t.until("werewolves")
        record()
        t.wolves_kill(victim)
        record()
        if save:
            t.do(6, "witch.save")
        else:
            t.tick()
        t.do(6, "witch.done")
        while not (t.step == "werewolves" and t.game.night == 2):
            record()
            t.timeout()
        record()
        seen.append(log)
    assert seen[0] == seen[1]
