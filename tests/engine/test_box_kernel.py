"""RULES-BOX's engine notions, card-free: the ring (B0.2), the pack (B0.3), seat sides (B4),
powers lost (B0.4), the voters (B5.2)."""
from rolekit import RoleTable

from werewolf import engine
from werewolf.engine import camps, pack, powers, ring

CARDS = "W V V seer V guard witch V"   # 8 seats, seat 1 the wolf


def test_the_left_neighbour_is_the_next_living_seat_wrapping_and_the_dead_are_skipped():
    t = RoleTable(CARDS)
    assert ring.left(t.game, 1) == 2 and ring.left(t.game, 8) == 1
    assert ring.right(t.game, 1) == 8 and ring.right(t.game, 3) == 2
    assert ring.neighbours(t.game, 1) == [2, 8]
    t.game.player(2).alive = False
    assert ring.left(t.game, 1) == 3 and ring.neighbours(t.game, 1) == [3, 8]
    assert ring.scan_left(t.game, 8) == [1, 3, 4, 5, 6, 7]   # stops before 8, 2 skipped
    assert ring.left(t.game, 2) == 3   # asked from a dead seat: over the living


def test_with_two_alive_one_neighbour_and_alone_none():
    t = RoleTable(CARDS)
    for seat in range(3, 9):
        t.game.player(seat).alive = False
    assert ring.neighbours(t.game, 1) == [2] and ring.neighbours(t.game, 2) == [1]
    t.game.player(2).alive = False
    assert ring.neighbours(t.game, 1) == [] and ring.left(t.game, 1) is None


def test_a_seat_that_joins_the_pack_hunts_with_it_and_keeps_his_card():
    t = RoleTable(CARDS)
    t.until("werewolves")
    t.say(1, "werewolves", "before")
    pack.join(t.game, 4, t.now)
    assert t.game.living_wolves() == [1, 4] and t.game.in_pack(4)
    assert t.last("wolves_joined")["seats"] == [1, 4] and t.last("wolves_joined")["audience"] == "wolves"
    assert engine.actors(t.game) == [1, 4]
    me = t.view(4)["me"]
    assert me["role"] == "seer" and me["pack"] is True
    assert t.view(4)["chat"]["werewolves"] == []   # the pack's words from his joining on
    t.say(1, "werewolves", "after")
    assert [m["text"] for m in t.view(4)["chat"]["werewolves"]] == ["after"]
    assert camps.side_of(t.game, 4) == "wolves"


def test_the_pack_face_every_other_living_member_reads_werewolf_and_nobody_else_learns_the_joining():
    t = RoleTable(CARDS)
    pack.join(t.game, 4, t.now)
    assert t.view(1)["players"][3]["role"] == "werewolf"   # the wolf sees a wolf, not the Seer
    assert t.view(4)["players"][0]["role"] == "werewolf"
    assert "role" not in t.view(2)["players"][3] and "pack" not in t.view(2)["players"][3]
    assert "pack" not in t.view(None)["players"][3]


def test_a_dead_member_shows_his_card_and_the_end_tells_everyone_who_joined():
    t = RoleTable(CARDS)
    pack.join(t.game, 4, t.now)
    engine.flow.kill(t.game, [4], "vote", t.now)
    assert t.view(1)["players"][3]["role"] == "seer"
    engine.stop(t.game, t.now)
    assert t.view(None)["players"][3]["pack"] is True and "pack" not in t.view(None)["players"][1]


def test_the_end_check_counts_the_joined_with_the_wolves():
    t = RoleTable(CARDS)
    pack.join(t.game, 4, t.now)
    engine.flow.kill(t.game, [2, 3, 5, 6, 7, 8], "vote", t.now)
    assert engine.flow.outcome(t.game) == {"camp": "werewolves", "seats": [1, 4]}


def test_a_powerless_holder_gets_a_ghost_step_full_limit_no_prompt():
    t = RoleTable(CARDS)
    powers.take_powers(t.game, [4])
    assert not powers.has_power(t.game, 4) and powers.powerless(t.game) == [4]
    t.until("seer")
    assert t.step == "seer" and engine.actors(t.game) == [] and t.view(4)["prompt"] is None
    assert t.game.deadline - t.now == engine.registry.STEPS["seer"].limit


def test_catalog_lists_each_card_s_tags():
    roles = {r["id"]: r for r in engine.catalog()["roles"]}
    assert roles["werewolf"]["tags"] == ["pack"] and roles["jester"]["tags"] == ["solitary"]
    assert roles["seer"]["tags"] == [] and roles["werewolf"]["wolf_place"] is False
