"""The Pied Piper — Joueur de flûte (RULES-BOX B3.4): one test per rule and decision, and B9.2's
differential."""
from rolekit import RoleTable, recorder

from werewolf import engine
from werewolf.engine import pack

# seat 1 wolf, 2 Piper, 3 Villager, 4 Seer, 5 Villager, 6 Witch, 7 Villager, 8 Villager
CARDS = "W piper V seer V witch V V"


def night(t, charm=None, victim=8):
    t.until("werewolves")
    t.wolves_kill(victim)
    t.until("piper")
    if charm is not None:
        t.do(2, "piper.charm", targets=charm)
    t.until("dawn")


def test_his_step_comes_after_the_witch_and_lasts_30_seconds():
    t = RoleTable(CARDS)
    order = []
    while t.step != "dawn":
        order.append(t.step)
        if t.step == "piper":
            assert t.game.deadline - t.now == 30
        t.timeout()
    assert order == ["seer", "werewolves", "witch", "piper"]


def test_two_different_living_players_never_himself_nor_one_charmed():
    t = RoleTable(CARDS)
    t.until("piper")
    spec = t.actions(2)["piper.charm"]
    assert spec["count"] == 2 and 2 not in spec["choices"]
    for targets in ([3], [3, 3], [2, 3], [3, 4, 5]):
        t.refuse(2, {"action": "piper.charm", "targets": targets}, "invalid_target")
    t.do(2, "piper.charm", targets=[3, 4])
    assert t.step == "dawn" and t.last("piper_charm")["audience"] == 2
    night(t)
    assert not {3, 4} & set(t.actions(2).get("piper.charm", {"choices": []})["choices"])


def test_the_charm_takes_at_the_end_of_the_night_and_the_charmed_meet():
    t = RoleTable(CARDS)
    night(t, [3, 4])
    assert [(e["audience"], e["seats"]) for e in t.events("charmed")] == [(2, [3, 4]), (3, [3, 4]), (4, [3, 4])]
    assert t.view(3)["me"]["charmed"] == [3, 4] and t.view(2)["me"]["charmed"] == [3, 4]
    assert "charmed" not in t.view(5)["me"] and "role" not in t.view(3)["players"][3]


def test_time_out_charms_nobody():
    t = RoleTable(CARDS)
    night(t)
    assert not t.events("charmed") and t.game.extra["piper"]["charmed"] == []


def test_the_dead_are_counted_first():
    t = RoleTable(CARDS)
    night(t, [3, 8], victim=8)
    assert t.game.extra["piper"]["charmed"] == [3]
    t2 = RoleTable(CARDS)
    night(t2, [3, 4], victim=2)
    assert t2.game.extra["piper"]["charmed"] == []


def test_when_fewer_than_two_are_eligible_he_charms_as_many():
    t = RoleTable(CARDS)
    t.game.extra["piper"]["charmed"] = [3, 4, 5, 6, 7, 8]
    t.until("piper")
    assert t.actions(2)["piper.charm"]["count"] == 1 and t.actions(2)["piper.charm"]["choices"] == [1]


def test_he_wins_alone_when_every_other_living_player_is_charmed():
    t = RoleTable(CARDS)
    t.game.extra["piper"]["charmed"] = [3, 4, 5, 6]
    t.until("werewolves")
    t.wolves_kill(8)
    t.until("piper")
    t.do(2, "piper.charm", targets=[1, 7])
    assert t.game.winner == {"camp": "piper", "seats": [2]}


def test_he_blocks_the_village_while_he_lives():
    t = RoleTable(CARDS)
    t.until("werewolves")
    engine.flow.kill(t.game, [1], "vote", t.now)
    assert engine.flow.outcome(t.game) is None


def test_infected_he_keeps_charming_but_wins_no_more():
    t = RoleTable(CARDS)
    pack.join(t.game, 2, t.now)
    t.game.extra["piper"]["charmed"] = [3, 4, 5, 6]
    night(t, [7, 8], victim=8)
    assert t.game.status == "running" and t.game.extra["piper"]["charmed"] == [3, 4, 5, 6, 7]


def test_differential_two_charms_with_one_seat_in_common():
    """B9.2: the Piper charms {a, b} vs {a, c}, all alive at dawn -> every seat but the Piper, a, b, c."""
    seen = []
    for charm in ([3, 4], [3, 5]):
        t = RoleTable(CARDS)
        log, record = recorder(t, [1, 6, 7, 8, None])
        while not (t.step == "piper" and t.game.night == 2):   # until the next charm
            record()
            if t.step == "piper":
                t.do(2, "piper.charm", targets=charm)
            elif t.step == "werewolves":
                t.wolves_kill(next(s for s in (7, 8) if t.alive(s)))
            else:
                t.timeout()
        seen.append(log)
    assert seen[0] == seen[1]
