"""The Possessed, the Cursed, the Jester and the Plague-Bearer over HTTP (RULES-VARIANTS
A1.1, A3.4, A3.8-A3.10, A12): off by default, dealt when the host asks, the catalog knows
them, and bad input gets its A12 code, a 4xx, and changes nothing."""
import json

from .test_auth import error_code

MINE = ("possessed", "cursed", "jester", "plague_bearer")
ALL_FOUR = {"roles": {"seer": False, "witch": False, "hunter": False, "cupid": False,
                      **{role: True for role in MINE}}, "captain": False}


def test_off_by_default_and_chosen_by_the_host(make_table):
    table = make_table(6)
    shown = table.host.state(table.id)["table"]["settings"]
    assert all(shown["roles"][role] is False for role in MINE)
    assert shown["limits"]["plague"] == 30
    for role in MINE:
        response = table.host.request("PATCH", f"/api/tables/{table.id}/settings", {"roles": {role: True}})
        assert response.status_code == 200 and response.get_json()["table"]["settings"]["roles"][role] is True
    response = table.host.request("PATCH", f"/api/tables/{table.id}/settings", {"roles": {"jester": "yes"}})
    assert response.status_code == 400 and error_code(response) == "invalid_settings"


def test_the_catalog_lists_them_with_their_camps_and_the_plague_step(make_player):
    catalog = make_player().request("GET", "/api/catalog", headers={"Accept-Language": "fr"}).get_json()
    roles = {r["id"]: r for r in catalog["roles"]}
    assert roles["possessed"]["camp"] == "wolves" and roles["cursed"]["camp"] == "village"
    assert roles["jester"]["camp"] == "solitary" and roles["plague_bearer"]["camp"] == "solitary"
    assert roles["plague_bearer"]["name"] == "Pesteux" and roles["plague_bearer"]["steps"] == ["plague"]
    order = catalog["night_order"]
    assert order.index("guard") < order.index("plague") < order.index("werewolves")
    assert {"cursed_bitten", "wolves_joined", "plague_infect", "contaminated", "stalemate"} <= set(catalog["events"])


def to_plague(table):
    table.start(**ALL_FOUR)
    views = table.views()
    assert {v["me"]["role"] for v in views.values()} == {"werewolf", "villager", *MINE}
    bearer = next(seat for seat, v in views.items() if v["me"]["role"] == "plague_bearer")
    for _ in range(5):
        if table.host.state(table.id)["step"]["id"] == "plague":
            return bearer
        table.finish_step()
    raise AssertionError("no plague step")


def test_bad_plague_input_gets_its_code_and_changes_nothing(make_table):
    table = make_table(6)
    bearer = to_plague(table)
    me = table.seats[bearer]
    other = next(seat for seat in table.seats if seat != bearer)
    before = {seat: json.dumps(p.state(table.id), sort_keys=True) for seat, p in table.seats.items()}
    for body, code in (({"target": bearer}, "invalid_target"), ({"target": 99}, "invalid_target"),
                       ({"target": "2"}, "bad_request"), ({}, "invalid_target"),
                       ({"target": None}, "invalid_target")):
        response = me.act(table.id, "plague.infect", **body)
        assert response.status_code == 400 and error_code(response) == code, (body, response.get_json())
    response = table.seats[other].act(table.id, "plague.infect", target=bearer)
    assert response.status_code in (403, 409) and error_code(response) == "not_your_turn"
    after = {seat: json.dumps(p.state(table.id), sort_keys=True) for seat, p in table.seats.items()}
    assert after == before
    response = me.act(table.id, "plague.infect", target=other)
    assert response.status_code == 200
    assert table.seats[bearer].state(table.id)["step"]["id"] == "werewolves"
