"""The Village Idiot — Idiot du village (RULES-BOX B3.2): one test per rule and decision, and
B9.2's differential."""
from rolekit import RoleTable, swapped_card_sees_alike

from werewolf import engine

# seat 1 wolf, 2 Idiot, 3 Villager, 4 Seer, 5 Elder, 6 Witch, 7 Villager, 8 Villager
CARDS = "W idiot V seer elder witch V V"


def quiet_night(t, victim=8):
    t.until("werewolves")
    t.wolves_kill(victim)
    t.until("dawn")


def vote_out(t, seat):
    t.to_vote()
    for voter in engine.actors(t.game):
        if t.step == "vote":
            t.do(voter, "vote.cast", seat)


def test_voted_out_he_lives_his_card_is_shown_to_everyone_and_night_falls():
    t = RoleTable(CARDS)
    quiet_night(t)
    vote_out(t, 2)
    assert t.alive(2) and t.last("idiot_pardoned") == {**t.last("idiot_pardoned"), "seat": 2, "audience": "all"}
    assert t.last("vote_result")["eliminated"] == 2
    assert t.step == "seer" and t.game.night == 2
    assert t.view(3)["players"][1]["role"] == "village_idiot"
    assert t.view(None)["players"][1]["role"] == "village_idiot"


def test_pardoned_he_votes_no_more_his_ballot_is_refused_and_marked_voter_false():
    t = RoleTable(CARDS)
    quiet_night(t)
    vote_out(t, 2)
    quiet_night(t, 7)
    t.to_vote()
    assert 2 not in engine.actors(t.game) and t.view(2)["prompt"] is None
    t.refuse(2, {"action": "vote.cast", "target": 3}, "not_your_turn")
    assert t.view(3)["players"][1]["voter"] is False and "voter" not in t.view(3)["players"][2]
    for s in t.game.living():
        if s != 2 and t.step == "vote":
            t.do(s, "vote.cast", None)
    assert t.step != "vote"   # every voter has voted: the round ends early without him


def test_a_second_vote_elimination_kills_him():
    t = RoleTable(CARDS)
    quiet_night(t)
    vote_out(t, 2)
    quiet_night(t, 7)
    vote_out(t, 2)
    assert not t.alive(2) and len(t.events("idiot_pardoned")) == 1


def test_the_wolves_may_still_devour_him():
    t = RoleTable(CARDS)
    quiet_night(t, 2)
    assert not t.alive(2) and not t.events("idiot_pardoned")


def test_pardoned_as_captain_he_loses_the_title_in_a_succession_he_leads():
    t = RoleTable(CARDS, captain=True)
    quiet_night(t)
    t.until("election")
    for s in t.game.living():
        t.do(s, "election.vote", 2)
    assert t.game.captain == 2
    t.timeout()
    t.vote_all({s: 2 for s in t.game.living()})
    assert t.step == "succession" and t.game.actor == 2 and t.alive(2)
    assert 2 not in t.actions(2)["succession.name"]["choices"]
    t.do(2, "succession.name", 3)
    assert t.game.captain == 3 and t.step == "seer"


def test_after_the_pardon_the_elder_s_death_takes_him_in_the_same_batch():
    t = RoleTable(CARDS)
    quiet_night(t)
    vote_out(t, 2)
    t.until("werewolves")
    t.wolves_kill(5)
    t.until("dawn")
    t.until("werewolves")
    t.wolves_kill(5)   # the Elder's second attack
    t.until("dawn")
    deaths = {d["seat"] for d in t.last("deaths")["deaths"]}
    assert deaths == {2, 5}


def test_powerless_before_any_pardon_he_is_simply_eliminated():
    t = RoleTable(CARDS)
    quiet_night(t)
    engine.powers.take_powers(t.game, [2])
    vote_out(t, 2)
    assert not t.alive(2) and not t.events("idiot_pardoned")


def test_a_pardon_is_no_death_his_lover_lives():
    t = RoleTable("W idiot cupid seer V V V V")
    t.until("cupid")
    t.do(3, "cupid.pair", targets=[2, 4])
    quiet_night(t)
    vote_out(t, 2)
    assert t.alive(2) and t.alive(4)


def test_differential_idiot_at_a_villager_at_b_vs_the_reverse():
    """B9.2: every seat but a and b, until one of them is voted out, dies, the Seer looks or the end."""
    assert swapped_card_sees_alike(CARDS, "idiot", [1, 4, 5, 6, 7, 8, None])


def test_the_round_s_result_reads_as_a_pardon_and_his_card_lies_face_up_for_everyone():
    t = RoleTable(CARDS)
    quiet_night(t)
    assert all("face_up" not in p for p in t.view(3)["players"])
    vote_out(t, 2)
    assert t.last("vote_result")["pardoned"] == 2   # told as a pardon, not "the village eliminates"
    for seat in (None, 1, 3, 2):
        shown = t.view(seat)["players"]
        assert shown[1]["face_up"] is True and not any("face_up" in p for p in shown if p["seat"] != 2)
    quiet_night(t, 7)
    vote_out(t, 2)
    assert "pardoned" not in t.last("vote_result") and t.last("vote_result")["eliminated"] == 2
    assert "face_up" not in t.view(3)["players"][1]   # dead: his card shows as any dead player's
