"""The Accursed Wolf-Father — Infect Père des Loups (RULES-BOX B3.11): one test per rule and decision."""
from rolekit import RoleTable, recorder

from werewolf import engine

# seat 1 Wolf-Father, 2 werewolf, 3 villager, 4 Seer, 5 Witch, 6 Guard, 7-9 villagers
CARDS = "father W V seer witch guard V V V"


def devour(t, target):
    t.until("werewolves")
    for wolf in (1, 2):
        t.do(wolf, "werewolves.designate", target)
    assert t.step == "wolf_father"


def roles_seen(t, seat):
    return {p["seat"]: p.get("role") for p in t.view(seat)["players"]}


def test_he_takes_a_wolf_s_place_in_the_deck():
    names = [f"P{i}" for i in range(1, 9)]
    game = engine.new_game(names, {"roles": {"wolf_father": True}}, 3, 0.0)
    assert game.cards.count("werewolf") == 1 and game.cards.count("wolf_father") == 1
    assert engine.view_for(game, None, 0.0)["composition"]["wolf_father"] == 1
    alone = engine.new_game(names, {"roles": {"wolf_father": True}, "wolves": 1}, 3, 0.0)
    assert alone.cards.count("werewolf") == 0 and alone.cards.count("wolf_father") == 1
    assert engine.default_settings()["roles"].get("wolf_father", False) is False


def test_he_hunts_with_the_pack_who_see_him_as_a_werewolf():
    t = RoleTable(CARDS)
    t.until("werewolves")
    assert engine.actors(t.game) == [1, 2]
    assert roles_seen(t, 2)[1] == "werewolf", "the pack face"
    assert t.view(1)["me"]["role"] == "wolf_father" and roles_seen(t, 1)[2] == "werewolf"
    t.say(1, "werewolves", "père")
    assert [m["text"] for m in t.view(2)["chat"]["werewolves"]] == ["père"]


def test_his_step_after_the_wolves_before_the_witch_30_seconds_every_night():
    t = RoleTable(CARDS)
    order = []
    while t.step != "dawn":
        order.append(t.step)
        if t.step == "wolf_father":
            assert t.game.deadline - t.now == 30 and engine.actors(t.game) == [1]
        t.timeout()
    assert order == ["seer", "guard", "werewolves", "wolf_father", "witch"]
    steps = engine.registry.STEPS
    assert steps["werewolves"].night_order < steps["wolf_father"].night_order < steps["witch"].night_order


def test_infect_is_offered_only_while_unused_and_for_a_victim_outside_the_pack():
    t = RoleTable(CARDS)
    t.until("werewolves")
    t.timeout()   # nobody designated: no victim
    assert t.step == "wolf_father" and "wolf_father.infect" not in t.actions(1)
    t.refuse(1, {"action": "wolf_father.infect"}, "no_victim")
    t2 = RoleTable(CARDS)
    devour(t2, 2)
    assert "wolf_father.infect" not in t2.actions(1)
    t2.refuse(1, {"action": "wolf_father.infect"}, "invalid_target")


def test_the_infected_lives_joins_the_pack_at_once_and_keeps_his_card():
    t = RoleTable(CARDS)
    devour(t, 4)
    assert t.actions(1)["wolf_father.infect"]["target"] == 4
    t.do(1, "wolf_father.infect")
    assert t.step == "witch"
    assert t.last("infected")["audience"] == 4 and t.last("infected")["night"] == 1
    assert t.last("wolves_joined")["seats"] == [1, 2, 4]
    assert t.last("wolf_father_infect")["audience"] == 1 and t.last("wolf_father_infect")["target"] == 4
    me = t.view(4)["me"]
    assert me["role"] == "seer" and me["pack"] is True
    assert roles_seen(t, 2)[4] == "werewolf" and roles_seen(t, 4)[1] == "werewolf"
    t.until("dawn")
    assert t.alive(4) and t.last("deaths")["deaths"] == []
    assert t.game.living_wolves() == [1, 2, 4]


def test_the_witch_still_learns_v_and_her_save_does_nothing_but_spends_the_potion():
    t = RoleTable(CARDS)
    devour(t, 3)
    t.do(1, "wolf_father.infect")
    assert t.last("witch_victim")["target"] == 3
    t.do(5, "witch.save")
    assert t.game.potions["life"] is False
    t.do(5, "witch.done")
    t.until("dawn")
    assert t.alive(3) and 3 in t.game.living_wolves()


def test_a_protected_victim_the_infection_is_spent_on_nothing():
    t = RoleTable(CARDS)
    t.until("guard")
    t.do(6, "guard.protect", 3)
    t.do(6, "guard.done")
    devour(t, 3)
    t.do(1, "wolf_father.infect")
    assert t.events("infected") == [] and 3 not in t.game.living_wolves()
    assert t.view(1)["me"]["infection"] is False
    assert [e for e in t.game.events if e["kind"] == "wolves_joined"] == []


def test_me_infection_is_his_alone_and_true_while_unused():
    t = RoleTable(CARDS)
    assert t.view(1)["me"]["infection"] is True
    assert all("infection" not in t.view(seat)["me"] for seat in range(2, 10))
    devour(t, 3)
    t.do(1, "wolf_father.infect")
    assert t.view(1)["me"]["infection"] is False
    t.until("werewolves")
    t.do(1, "werewolves.designate", 7)
    t.do(2, "werewolves.designate", 7)
    t.do(3, "werewolves.designate", 7)
    assert t.step == "wolf_father", "his step runs every night, the infection spent"
    assert "wolf_father.infect" not in t.actions(1)
    t.refuse(1, {"action": "wolf_father.infect"}, "already_done")


def test_done_or_the_time_out_no_infection_the_victim_dies():
    t = RoleTable(CARDS)
    devour(t, 3)
    t.do(1, "wolf_father.done")
    t.until("dawn")
    assert not t.alive(3)
    t2 = RoleTable(CARDS)
    devour(t2, 3)
    t2.timeout()
    t2.until("dawn")
    assert not t2.alive(3) and t2.view(1)["me"]["infection"] is True


def test_a_cursed_choice_is_bitten_first_no_offer():
    t = RoleTable("father W cursed seer witch guard V V V")
    devour(t, 3)
    assert t.game.player(3).role == "werewolf" and "wolf_father.infect" not in t.actions(1)


def test_the_infected_seer_still_looks_and_nobody_else_is_told():
    t = RoleTable(CARDS)
    devour(t, 4)
    t.do(1, "wolf_father.infect")
    for seat in (None, 3, 5, 6, 7):
        view = t.view(seat)
        assert not [e for e in view["events"] if e["kind"] in ("infected", "wolves_joined", "wolf_father_infect")]
        assert all("pack" not in p for p in view["players"])
    t.until("seer")
    assert "seer.look" in t.actions(4)


def test_the_witch_s_poison_kills_an_infected():
    t = RoleTable(CARDS)
    devour(t, 3)
    t.do(1, "wolf_father.infect")
    t.do(5, "witch.poison", 3)
    t.do(5, "witch.done")
    t.until("dawn")
    assert not t.alive(3) and t.last("deaths")["deaths"] == [{"seat": 3, "role": "villager", "cause": "night"}]


def test_at_the_end_everyone_learns_who_joined_and_the_infected_wins_with_the_wolves():
    t = RoleTable("father W V seer witch V")
    devour(t, 3)
    t.do(1, "wolf_father.infect")
    t.until("dawn")
    engine.stop(t.game, t.now)
    assert next(p for p in t.view(None)["players"] if p["seat"] == 3)["pack"] is True
    t2 = RoleTable("father W V seer witch V")
    devour(t2, 3)
    t2.do(1, "wolf_father.infect")
    for seat in (4, 5, 6):   # (the end check only: whoever kills them)
        t2.game.player(seat).alive = False
    assert engine.flow.outcome(t2.game) == {"camp": "werewolves", "seats": [1, 2, 3]}


def test_fixed_night_his_own_step_after_night_before_the_witch():
    t = RoleTable(CARDS, options={"fixed_night": True})
    plan = []
    while t.step != "dawn":
        plan.append(t.step)
        if t.step == "night":
            for wolf in (1, 2):
                t.do(wolf, "werewolves.designate", 3)
        t.timeout()
    assert plan == ["night", "wolf_father", "witch"]


# --- B9.2: "the Father infects V vs he does nothing and the Witch saves V -> every seat but the
# pack, V and the Witch, until the next night begins"
def play_differential(infect):
    t = RoleTable(CARDS)
    seen, record = recorder(t, (None, 3, 6, 7, 8, 9))
    while t.game.night < 2 and t.game.status == "running":
        record()
        if t.step == "werewolves":
            for wolf in (1, 2):
                t.do(wolf, "werewolves.designate", 4)
        elif t.step == "wolf_father":
            t.do(1, "wolf_father.infect" if infect else "wolf_father.done")
        elif t.step == "witch":
            if infect:
                t.tick()
            else:
                t.do(5, "witch.save")
            t.do(5, "witch.done")
        else:
            t.timeout()
    return seen


def test_differential_nobody_else_learns_of_the_infection():
    assert play_differential(True) == play_differential(False)


# --- interactions (B3.11, B3.15)
def test_the_possessed_infected_joins_the_pack():
    t = RoleTable("father W possessed seer witch guard V V V")
    devour(t, 3)
    t.do(1, "wolf_father.infect")
    assert 3 in t.game.living_wolves() and t.view(3)["me"]["pack"] is True


def test_an_elder_with_his_extra_life_is_infected_his_life_untouched():
    t = RoleTable("father W elder seer witch guard V V V")
    devour(t, 3)
    t.do(1, "wolf_father.infect")
    t.until("dawn")
    assert t.alive(3) and 3 in t.game.living_wolves()
    assert "elder_life" not in t.last("night_summary") or t.last("night_summary")["elder_life"] is None


def test_an_infected_solitary_loses_his_solo_win():
    t = RoleTable("father W piper seer witch guard V V V")
    devour(t, 3)
    t.do(1, "wolf_father.infect")
    assert engine.camps.side_of(t.game, 3) == "wolves"


def test_a_caught_little_girl_chosen_may_be_infected():
    t = RoleTable("father W lg seer witch guard V V V", options={"little_girl_risk": 100})
    t.until("werewolves")
    t.do(3, "little_girl.spy")
    assert t.events("little_girl_caught")
    for wolf in (1, 2):
        t.do(wolf, "werewolves.designate", 3)
    assert "wolf_father.infect" in t.actions(1)
    t.do(1, "wolf_father.infect")
    assert 3 in t.game.living_wolves()
