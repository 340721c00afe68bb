"""RULES.md §4: deaths, grief, the Hunter's shot, the Captain's succession, their order."""
from enginekit import Table

SIX = "W V seer witch hunter cupid"        # 1 wolf, 2 villager, 3 seer, 4 witch, 5 hunter, 6 cupid
TEN = "W W V V V V seer witch hunter cupid"  # wolves 1-2, villagers 3-6, 7 seer, 8 witch, 9 hunter, 10 cupid


def test_lover_dies_of_grief_in_the_same_night_announcement():
    t = Table(TEN, captain=False)
    t.do(10, "cupid.pair", targets=[3, 4])
    t.until("werewolves")
    t.wolves_kill(3)
    t.do(8, "witch.done")
    assert t.step == "dawn"
    deaths = [e for e in t.game.events if e["kind"] == "deaths"]
    assert len(deaths) == 1
    assert deaths[0]["deaths"] == [{"seat": 3, "role": "villager", "cause": "night"},
                                   {"seat": 4, "role": "villager", "cause": "night"}]
    # The causes (grief) are kept for the end.
    assert t.last("night_deaths")["audience"] == "end"
    assert t.last("night_deaths")["deaths"] == [{"seat": 3, "cause": "night"}, {"seat": 4, "cause": "grief"}]


def test_lover_dies_of_grief_in_the_same_vote_announcement():
    t = Table(TEN, captain=False)
    t.do(10, "cupid.pair", targets=[3, 4])
    t.until("vote")
    t.vote_all({1: 4})
    assert t.dead() == [3, 4]
    assert t.last("deaths")["deaths"] == [{"seat": 4, "role": "villager", "cause": "vote"},
                                          {"seat": 3, "role": "villager", "cause": "grief"}]


def test_poisoned_lover_takes_the_other_along():
    t = Table(TEN, captain=False)
    t.do(10, "cupid.pair", targets=[3, 10])
    t.until("werewolves")
    t.timeout()
    t.do(8, "witch.poison", 10)
    t.do(8, "witch.done")
    assert t.dead() == [3, 10]


def test_end_check_runs_before_the_hunter_shoots():
    t = Table(SIX, captain=False)
    t.until("werewolves")
    t.wolves_kill(5)                  # the hunter
    t.do(4, "witch.poison", 1)        # the only wolf
    t.do(4, "witch.done")
    assert t.game.status == "ended"
    assert t.game.winner["camp"] == "village"
    assert t.events("hunter_shot") == []


def test_wolves_win_before_the_dying_hunter_could_shoot_the_last_wolf():
    t = Table(SIX, captain=False)
    t.timeout()                        # no lovers
    t.until("werewolves")
    t.wolves_kill(2)
    t.do(4, "witch.done")
    t.until("vote")
    t.vote_all({1: 3, 4: 3, 5: 3})     # the seer is voted out
    t.until("werewolves")
    t.wolves_kill(6)
    t.do(4, "witch.done")
    t.until("vote")
    t.vote_all({})
    assert t.game.living() == [1, 4, 5]
    t.wolves_kill(5)                   # the hunter...
    t.do(4, "witch.poison", 4)         # ...and the witch poisons herself
    t.do(4, "witch.done")
    assert t.game.status == "ended"
    assert t.game.winner == {"camp": "werewolves", "seats": [1]}
    assert t.events("hunter_shot") == []


def test_hunter_killed_at_night_shoots_after_dawn():
    t = Table(TEN, captain=False)
    t.until("werewolves")
    t.wolves_kill(9)
    t.do(8, "witch.done")
    assert t.step == "dawn"
    t.timeout()
    assert t.step == "hunter"
    assert t.view(3)["step"]["actor"] == 9
    assert t.actions(9)["hunter.shoot"]["choices"] == [1, 2, 3, 4, 5, 6, 7, 8, 10]
    t.do(9, "hunter.shoot", 3)
    assert t.dead() == [3, 9]
    assert t.last("deaths")["deaths"] == [{"seat": 3, "role": "villager", "cause": "hunter"}]
    assert t.step == "debate"


def test_hunter_voted_out_shoots_then_night_falls():
    t = Table(TEN, captain=False)
    t.until("vote")
    t.vote_all({1: 9})
    assert t.step == "hunter"
    t.do(9, "hunter.shoot", 2)
    assert t.dead() == [2, 9]
    assert t.step == "seer" and t.game.night == 2


def test_hunter_silent_nobody_dies():
    t = Table(TEN, captain=False)
    t.until("vote")
    t.vote_all({1: 9})
    t.timeout()
    assert t.dead() == [9]
    assert t.last("hunter_shot") ["target"] is None
    assert t.step == "seer"


def test_hunter_dying_of_grief_still_shoots():
    t = Table(TEN, captain=False)
    t.do(10, "cupid.pair", targets=[3, 9])
    t.until("werewolves")
    t.wolves_kill(3)
    t.do(8, "witch.done")
    assert t.dead() == [3, 9]
    t.timeout()
    assert t.step == "hunter"
    t.do(9, "hunter.shoot", 1)
    assert not t.alive(1)


def test_hunter_shot_brings_its_own_grief_and_end_check():
    t = Table(SIX, captain=False)
    t.do(6, "cupid.pair", targets=[1, 2])   # the wolf and a villager: a mixed couple
    t.until("werewolves")
    t.wolves_kill(5)
    t.do(4, "witch.done")
    t.timeout()
    t.do(5, "hunter.shoot", 2)
    assert t.dead() == [1, 2, 5]
    shot = t.last("deaths")
    assert shot["deaths"] == [{"seat": 2, "role": "villager", "cause": "hunter"},
                              {"seat": 1, "role": "werewolf", "cause": "grief"}]
    assert t.game.status == "ended"
    assert t.game.winner["camp"] == "village"


def test_hunter_killing_the_last_wolf_wins_for_the_village():
    t = Table(SIX, captain=False)
    t.until("vote")
    t.vote_all({1: 5})
    t.do(5, "hunter.shoot", 1)
    assert t.game.status == "ended"
    assert t.game.winner == {"camp": "village", "seats": [2, 3, 4, 5, 6]}


def test_dead_captain_names_a_successor_who_then_counts_double():
    t = Table(TEN)
    t.until("election")
    for seat in t.game.living():
        t.do(seat, "election.vote", 3)
    t.to_vote()
    t.vote_all({1: 3, 2: 3})
    assert t.step == "succession"
    assert t.view(5)["step"]["actor"] == 3
    assert 3 not in t.actions(3)["succession.name"]["choices"]
    t.do(3, "succession.name", 4)
    assert t.game.captain == 4
    assert t.view(6)["players"][3]["captain"] is True
    assert t.step == "seer"
    t.until("vote")
    t.vote_all({4: 5, 6: 7})
    assert not t.alive(5), "the successor's vote counts double"


def test_succession_refused_by_time_out_leaves_no_captain_for_the_game():
    t = Table(TEN)
    t.until("election")
    for seat in t.game.living():
        t.do(seat, "election.vote", 3)
    t.to_vote()
    t.vote_all({1: 3})
    t.timeout()
    assert t.game.captain is None
    assert t.last("succession")["captain"] is None
    t.until("vote")
    t.vote_all({4: 5, 6: 7})
    assert t.step != "tiebreak", "a tie with no Captain: nobody is eliminated"
    assert t.alive(5) and t.alive(7)
    t.until("dawn")
    t.timeout()
    assert t.step == "debate", "no new election"


def test_hunter_shoots_before_the_captain_names_a_successor():
    t = Table(TEN)
    t.until("election")
    for seat in t.game.living():
        t.do(seat, "election.vote", 9)      # the hunter is Captain
    t.to_vote()
    t.vote_all({1: 9})
    assert t.step == "hunter"
    t.do(9, "hunter.shoot", 5)
    assert t.step == "succession"
    assert t.view(3)["step"]["actor"] == 9
    choices = t.actions(9)["succession.name"]["choices"]
    assert 5 not in choices and 9 not in choices, "the successor is among those still alive"
    t.do(9, "succession.name", 6)
    assert t.game.captain == 6


def test_captain_killed_at_night_with_the_hunter_shot_first():
    t = Table(TEN, captain=True)
    t.until("election")
    for seat in t.game.living():
        t.do(seat, "election.vote", 4)
    t.to_vote()
    t.vote_all({})
    t.until("werewolves")
    t.wolves_kill(4)                   # the Captain
    t.do(8, "witch.poison", 9)         # the Hunter
    assert t.step == "witch"
    t.do(8, "witch.done")
    assert t.step == "dawn"
    t.timeout()
    assert t.step == "hunter"
    t.do(9, "hunter.shoot", 5)
    assert t.step == "succession"
    assert t.game.living() == [1, 2, 3, 6, 7, 8, 10]
    assert t.actions(4)["succession.name"]["choices"] == [1, 2, 3, 6, 7, 8, 10]
    t.do(4, "succession.name", 7)
    assert t.step == "debate"


def test_captain_dying_of_grief_names_a_successor():
    t = Table(TEN)
    t.do(10, "cupid.pair", targets=[3, 4])
    t.until("election")
    for seat in t.game.living():
        t.do(seat, "election.vote", 4)
    t.to_vote()
    t.vote_all({1: 3})
    assert t.dead() == [3, 4]
    assert t.step == "succession"
    t.do(4, "succession.name", 5)
    assert t.game.captain == 5


def test_the_dead_act_only_to_shoot_or_name_a_successor():
    t = Table(TEN)
    t.until("election")
    for seat in t.game.living():
        t.do(seat, "election.vote", 9)
    t.to_vote()
    t.vote_all({1: 9})
    assert t.step == "hunter"
    t.refuse(9, {"action": "succession.name", "target": 3}, "wrong_step")
    t.refuse(3, {"action": "hunter.shoot", "target": 1}, "not_your_turn")
    t.refuse(9, {"action": "hunter.shoot", "target": 9}, "invalid_target")
    t.do(9, "hunter.shoot", 4)
    t.refuse(9, {"action": "hunter.shoot", "target": 5}, "wrong_step")
    t.refuse(4, {"action": "succession.name", "target": 5}, "not_alive")
    t.do(9, "succession.name", 5)
    t.refuse(9, {"action": "seer.look", "target": 5}, "not_alive")
