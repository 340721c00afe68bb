"""The Cursed — Maudit (RULES-VARIANTS A3.8): one test per rule, decision and interaction."""
from rolekit import RoleTable, night_steps, views_of

from werewolf import engine

# seat 1 wolf, 2 Cursed, 3-4 villagers, 5 Seer, 6 Witch
CARDS = "W cursed V V seer witch"


def bite(t, cursed=2):
    t.until("werewolves")
    t.wolves_kill(cursed)


def test_off_by_default_and_dealt_when_the_host_asks():
    assert engine.default_settings()["roles"].get("cursed", False) is False
    game = engine.new_game([f"P{i}" for i in range(8)], {"roles": {"cursed": True}}, 3, 0.0)
    assert game.cards.count("cursed") == 1 and game.cards.count("werewolf") == 2
    assert "cursed" not in engine.new_game([f"P{i}" for i in range(8)], {}, 3, 0.0).cards


def test_he_has_no_step():
    assert night_steps(RoleTable(CARDS)) == ["seer", "werewolves", "witch"]


def test_bitten_he_does_not_die_and_becomes_a_werewolf_at_once():
    t = RoleTable(CARDS)
    bite(t)
    assert t.game.player(2).role == "werewolf" and t.alive(2)
    assert t.last("cursed_bitten") == {**t.last("cursed_bitten"), "audience": 2, "night": 1}
    assert t.last("wolves_joined")["seats"] == [1, 2] and t.last("wolves_joined")["audience"] == "wolves"
    t.do(6, "witch.done")
    assert t.last("deaths")["deaths"] == [], "the night ends without a death to announce"


def test_the_composition_still_shows_the_cursed_card():
    t = RoleTable(CARDS)
    bite(t)
    assert t.view(3)["composition"]["cursed"] == 1 and t.view(3)["composition"]["werewolf"] == 1


def test_he_sees_his_fellow_wolves_and_they_see_him():
    t = RoleTable(CARDS)
    bite(t)
    mine = {p["seat"]: p.get("role") for p in t.view(2)["players"]}
    assert mine[1] == "werewolf" and t.view(2)["me"] == {**t.view(2)["me"], "role": "werewolf", "was": "cursed"}
    wolf = {p["seat"]: p for p in t.view(1)["players"]}
    assert wolf[2]["role"] == "werewolf" and wolf[2]["was"] == "cursed"


def test_he_designates_from_the_next_night():
    t = RoleTable(CARDS)
    bite(t)
    t.do(6, "witch.done")
    t.until("werewolves")
    assert set(engine.actors(t.game)) == {1, 2}
    t.do(1, "werewolves.designate", 3)
    t.do(2, "werewolves.designate", 3)
    t.do(6, "witch.done")
    assert not t.alive(3)


def test_he_reads_the_wolves_channel_from_his_bite_on_only():
    t = RoleTable(CARDS)
    t.until("werewolves")
    t.say(1, "werewolves", "before the bite")
    t.wolves_kill(2)
    assert t.view(2)["channels"]["read"] == ["village", "werewolves"]
    assert t.view(2)["chat"]["werewolves"] == []
    t.say(1, "werewolves", "welcome")
    t.say(2, "werewolves", "thanks")
    lines = t.view(2)["chat"]["werewolves"]
    assert [(m["seq"], m["text"]) for m in lines] == [(1, "welcome"), (2, "thanks")]
    assert [m["text"] for m in t.view(1)["chat"]["werewolves"]] == ["before the bite", "welcome", "thanks"]


def test_the_witch_learns_him_as_the_choice_her_save_does_nothing_her_poison_works():
    t = RoleTable(CARDS)
    bite(t)
    assert t.last("witch_victim")["target"] == 2
    t.do(6, "witch.save")
    t.do(6, "witch.poison", 3)
    t.do(6, "witch.done")
    assert t.game.player(2).role == "werewolf" and t.alive(2), "still a wolf"
    assert [d["seat"] for d in t.last("deaths")["deaths"]] == [3]


def test_guard_protects_the_cursed_no_bite():
    t = RoleTable("W cursed V V guard witch")
    t.until("guard")
    t.do(5, "guard.protect", 2)
    t.do(5, "guard.done")
    t.wolves_kill(2)
    assert t.game.player(2).role == "cursed" and not t.events("cursed_bitten")
    t.do(6, "witch.done")
    assert t.alive(2)


def test_seer_sees_the_cursed_before_the_bite_and_a_werewolf_after():
    t = RoleTable(CARDS)
    t.until("seer")
    t.do(5, "seer.look", 2)
    assert t.last("seer_look")["role"] == "cursed"
    t.wolves_kill(2)
    t.do(6, "witch.done")
    t.until("seer")
    t.do(5, "seer.look", 2)
    assert t.last("seer_look")["role"] == "werewolf"


def test_the_seer_is_not_told_he_was_bitten():
    t = RoleTable(CARDS)
    bite(t)
    t.do(6, "witch.done")
    t.until("seer")
    t.do(5, "seer.look", 2)
    seen = {p["seat"]: p for p in t.view(5)["players"]}
    assert seen[2]["role"] == "werewolf" and "was" not in seen[2]


def test_at_his_death_his_card_shows_was_cursed():
    t = RoleTable("W W cursed V V V seer witch hunter")
    t.until("werewolves")
    t.wolves_kill(3)
    t.do(8, "witch.done")
    t.until("vote")
    t.vote_all({s: 3 for s in t.game.living()})
    assert not t.alive(3)
    shown = {p["seat"]: p for p in t.view(4)["players"]}
    assert shown[3]["role"] == "werewolf" and shown[3]["was"] == "cursed"


def test_he_wins_with_the_wolves_once_bitten():
    t = RoleTable("W cursed V V V V")
    bite(t)
    while t.game.status == "running":
        prey = min(s for s in t.game.living() if s > 2)
        if t.step == "vote":
            t.vote_all({s: prey for s in t.game.living()})
        elif t.step == "werewolves":
            t.wolves_kill(prey)
        else:
            t.timeout()
    assert t.game.winner == {"camp": "werewolves", "seats": [1, 2]}


def test_bitten_with_a_village_lover_the_couple_becomes_mixed():
    t = RoleTable("W cursed V V cupid witch")
    t.until("cupid")
    t.do(5, "cupid.pair", targets=[2, 3])
    assert engine.flow.outcome(t.game) is None
    t.wolves_kill(2)
    mixed = set()
    for hook in engine.registry.hooks("mixed_couple"):
        mixed |= hook(t.game)
    assert mixed == {2, 3}


def test_the_thief_may_take_the_cursed_card():
    t = RoleTable("W V V seer witch thief", middle="cursed V")
    t.until("thief")
    t.do(6, "thief.take", card=1)
    assert t.game.player(6).role == "cursed"
    t.until("werewolves")
    t.wolves_kill(6)
    assert t.game.player(6).role == "werewolf"


def test_a_bitten_cursed_may_be_contaminated():
    t = RoleTable("W cursed V V plague witch")
    t.until("plague")
    t.do(5, "plague.infect", 2)
    t.wolves_kill(2)
    t.do(6, "witch.done")
    assert t.game.extra["plague_bearer"]["contaminated"] == [2]


# --- A9.2: "the wolves' choice is the unprotected Cursed C and the Witch does nothing vs
# the wolves' choice is another player D whom the Witch saves -> every seat but the living
# wolves, C and the Witch (D included), until the next night begins"
def play_differential(bitten: bool):
    t = RoleTable("W W cursed V V V V seer witch", captain=True)
    seen = []

    def record():
        seen.append(views_of(t, [None, 4, 5, 6, 7, 8]))

    record()
    t.until("werewolves")
    record()
    t.wolves_kill(3 if bitten else 4)
    record()
    if not bitten:
        t.do(9, "witch.save")
    else:
        t.tick()
    t.do(9, "witch.done")
    record()
    while t.game.night < 2:
        t.timeout()
        record()
    return seen


def test_differential_the_bite_is_known_to_the_pack_the_cursed_and_nobody_else():
    assert play_differential(True) == play_differential(False)


def test_a_seer_who_saw_the_cursed_before_the_bite_keeps_what_she_saw_until_he_dies():
    t = RoleTable("W W cursed V V V seer witch hunter")
    t.until("seer")
    t.do(7, "seer.look", 3)
    t.wolves_kill(3)
    t.do(8, "witch.done")
    seen = {p["seat"]: p for p in t.view(7)["players"]}
    assert seen[3]["role"] == "cursed" and "was" not in seen[3]
    t.until("vote")
    t.vote_all({s: 3 for s in t.game.living()})
    seen = {p["seat"]: p for p in t.view(7)["players"]}
    assert seen[3]["role"] == "werewolf" and seen[3]["was"] == "cursed", "dead, his card is everyone's"
