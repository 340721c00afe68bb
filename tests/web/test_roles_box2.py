"""The Raven, the Wolf-Father, the Wolf-Hound, the Sisters and the Brothers over HTTP
(RULES-BOX B1.1, B12): each new action through POST /act, its refusals with their codes (a
4xx, nothing changed), the families' channels through POST /chat; the Knight and the Angel
(no action) by their settings, the catalog and day 0."""
import json

from .test_auth import error_code

BASE_OFF = {"seer": False, "witch": False, "hunter": False, "cupid": False}


def start(table, **roles):
    table.start(roles={**BASE_OFF, **roles}, captain=False)
    return table.views()


def holders(views, role):
    return sorted(seat for seat, v in views.items() if v["me"]["role"] == role)


def to_step(table, step_id, tries=12):
    for _ in range(tries):
        view = table.host.state(table.id)
        if view["step"] and view["step"]["id"] == step_id:
            return view
        table.finish_step()
    raise AssertionError(f"never reached {step_id}")


def snapshot(table):
    return {seat: json.dumps(p.state(table.id), sort_keys=True) for seat, p in table.seats.items()}


def test_the_seven_cards_are_settings_off_by_default_and_in_the_catalog(make_table, make_player):
    table = make_table(6)
    shown = table.host.state(table.id)["table"]["settings"]
    mine = ("knight", "raven", "wolf_father", "sister", "brother", "wolf_hound", "angel")
    assert all(shown["roles"][role] is False for role in mine)
    assert shown["limits"]["raven"] == 30 and shown["limits"]["sisters"] == 30
    response = table.host.request("PATCH", f"/api/tables/{table.id}/settings", {"roles": {"raven": 1}})
    assert response.status_code == 400 and error_code(response) == "invalid_settings"
    catalog = make_player().request("GET", "/api/catalog", headers={"Accept-Language": "fr"}).get_json()
    roles = {r["id"]: r for r in catalog["roles"]}
    assert roles["raven"]["name"] == "Corbeau" and roles["sister"]["cards"] == 2 and roles["brother"]["cards"] == 3
    assert roles["wolf_father"]["camp"] == "wolves" and roles["angel"]["camp"] == "solitary"
    order = catalog["night_order"]
    assert order.index("wolf_hound") < order.index("sisters") < order.index("brothers") < order.index("seer")
    assert order.index("werewolves") < order.index("wolf_father") < order.index("witch") < order.index("raven")


def test_raven_mark_and_done(make_table):
    table = make_table(6)
    views = start(table, raven=True)
    [raven] = holders(views, "raven")
    other = holders(views, "villager")[0]   # voted out by his two votes: the game goes on
    to_step(table, "raven")
    me = table.seats[raven]
    before = snapshot(table)
    for body, code in (({"target": 99}, "invalid_target"), ({"target": "2"}, "bad_request"), ({}, "invalid_target")):
        response = me.act(table.id, "raven.mark", **body)
        assert response.status_code == 400 and error_code(response) == code, (body, response.get_json())
    response = table.seats[other].act(table.id, "raven.mark", target=other)
    assert response.status_code in (403, 409) and error_code(response) == "not_your_turn"
    assert snapshot(table) == before
    assert me.act(table.id, "raven.mark", target=other).status_code == 200
    view = table.seats[other].state(table.id)
    assert view["step"]["id"] == "dawn"
    assert [e["target"] for e in view["events"] if e["kind"] == "raven_accused"] == [other]
    assert me.state(table.id)["me"]["mark"] == other
    to_step(table, "raven", tries=20)
    assert me.act(table.id, "raven.done").status_code == 200


def test_wolf_father_infect_and_done(make_table):
    table = make_table(6)
    table.start(roles={**BASE_OFF, "wolf_father": True}, captain=False, wolves=1)
    views = table.views()
    [father] = holders(views, "wolf_father")
    victim = next(s for s in table.seats if s != father)
    to_step(table, "werewolves")
    assert table.seats[father].act(table.id, "werewolves.designate", target=victim).status_code == 200
    view = table.seats[father].state(table.id)
    assert view["step"]["id"] == "wolf_father" and view["me"]["infection"] is True
    response = table.seats[victim].act(table.id, "wolf_father.infect")
    assert response.status_code in (403, 409) and error_code(response) == "not_your_turn"
    assert table.seats[father].act(table.id, "wolf_father.infect").status_code == 200
    infected = table.seats[victim].state(table.id)
    assert infected["me"]["pack"] is True and [e["kind"] for e in infected["events"] if e["kind"] == "infected"]
    assert table.seats[father].state(table.id)["me"]["infection"] is False
    to_step(table, "wolf_father", tries=20)
    response = table.seats[father].act(table.id, "wolf_father.infect")
    assert response.status_code in (400, 409) and error_code(response) == "already_done"
    assert table.seats[father].act(table.id, "wolf_father.done").status_code == 200


def test_wolf_hound_wolves_and_village(make_table):
    for side in ("wolves", "village"):
        table = make_table(6)
        views = start(table, wolf_hound=True)
        [hound] = holders(views, "wolf_hound")
        other = next(s for s in table.seats if s != hound)
        view = to_step(table, "wolf_hound")
        response = table.seats[other].act(table.id, f"wolf_hound.{side}")
        assert response.status_code in (403, 409) and error_code(response) == "not_your_turn"
        assert table.seats[hound].act(table.id, f"wolf_hound.{side}", step=view["step"]["seq"]).status_code == 200
        response = table.seats[hound].act(table.id, "wolf_hound.village", step=view["step"]["seq"])
        assert response.status_code == 409 and error_code(response) == "stale_step"
        me = table.seats[hound].state(table.id)
        assert [e["side"] for e in me["events"] if e["kind"] == "wolf_hound_choice"] == [side]
        assert me["me"].get("pack", False) is (side == "wolves")


def test_sisters_done_and_their_channel(make_table):
    table = make_table(6)
    views = start(table, sister=True)
    sisters = holders(views, "sister")
    other = next(s for s in table.seats if s not in sisters)
    to_step(table, "sisters")
    assert table.seats[sisters[0]].chat(table.id, "sisters", "bonsoir").status_code == 201
    response = table.seats[other].chat(table.id, "sisters", "moi aussi")
    assert response.status_code == 400 and error_code(response) == "channel_closed"
    assert "sisters" not in table.seats[other].state(table.id)["chat"]
    response = table.seats[other].act(table.id, "sisters.done")
    assert response.status_code in (403, 409) and error_code(response) == "not_your_turn"
    assert table.seats[sisters[0]].act(table.id, "sisters.done").status_code == 200
    assert table.host.state(table.id)["step"]["id"] == "sisters"
    assert table.seats[sisters[1]].act(table.id, "sisters.done").status_code == 200
    assert table.host.state(table.id)["step"]["id"] != "sisters"
    lines = table.seats[sisters[1]].state(table.id)["chat"]["sisters"]
    assert [m["text"] for m in lines] == ["bonsoir"]


def test_brothers_done(make_table):
    table = make_table(6)
    views = start(table, brother=True)
    brothers = holders(views, "brother")
    assert len(brothers) == 3
    to_step(table, "brothers")
    for seat in brothers:
        assert table.seats[seat].act(table.id, "brothers.done").status_code == 200
    assert table.host.state(table.id)["step"]["id"] != "brothers"


def test_the_channel_of_a_card_not_in_the_game_is_unknown(make_table):
    table = make_table(6)
    start(table)
    response = table.seats[1].chat(table.id, "sisters", "allô")
    assert response.status_code == 400 and error_code(response) == "unknown_channel"


def test_the_angel_opens_day_0_and_the_knight_is_dealt(make_table):
    table = make_table(7)
    views = start(table, angel=True, knight=True)
    assert len(holders(views, "angel")) == 1 and len(holders(views, "knight")) == 1
    view = table.host.state(table.id)
    assert view["step"]["id"] == "debate" and view["step"]["day"] == 0
