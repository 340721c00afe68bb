"""RULES-BOX's first eight cards over HTTP (B1.1, B12): off by default, accepted by the settings,
listed by the catalog, and each new action goes through POST /act with its view fields and its
error codes (bad input: a 4xx, nothing changed)."""
import json

from .test_auth import error_code

MINE = ("elder", "village_idiot", "scapegoat", "piper", "white_werewolf", "wild_child", "fox", "bear_tamer")
ALL = {"roles": {"seer": False, "witch": False, "hunter": False, "cupid": False, **{role: True for role in MINE}},
       "captain": False}


def holders(table) -> dict:
    return {v["me"]["role"]: seat for seat, v in table.views().items()}


def until(table, step_id: str, night: int | None = None):
    for _ in range(40):
        step = table.host.state(table.id)["step"]
        if step["id"] == step_id and (night is None or step.get("night") == night):
            return
        table.finish_step()
    raise AssertionError(f"no {step_id} step")


def unchanged(table):
    return {seat: json.dumps(p.state(table.id), sort_keys=True) for seat, p in table.seats.items()}


def test_off_by_default_accepted_as_booleans_and_in_the_catalog(make_table, make_player):
    table = make_table(10)
    shown = table.host.state(table.id)["table"]["settings"]
    assert all(shown["roles"][role] is False for role in MINE)
    assert {shown["limits"][s] for s in ("fox", "piper", "white_werewolf", "wild_child")} == {30}
    assert shown["limits"]["scapegoat"] == 45
    response = table.host.request("PATCH", f"/api/tables/{table.id}/settings", {"roles": {"fox": 1}})
    assert response.status_code == 400 and error_code(response) == "invalid_settings"
    catalog = make_player().request("GET", "/api/catalog", headers={"Accept-Language": "fr"}).get_json()
    order = catalog["night_order"]
    assert order.index("cupid") < order.index("wild_child") < order.index("seer") < order.index("fox") \
        < order.index("guard") < order.index("werewolves") < order.index("white_werewolf") < order.index("witch") \
        < order.index("piper")
    roles = {r["id"]: r for r in catalog["roles"]}
    assert roles["piper"]["camp"] == "solitary" and roles["white_werewolf"]["pack"] is True
    assert roles["elder"]["name"] == "Ancien" and {"piper", "white_werewolf"} <= set(catalog["winners"])


def test_the_wild_child_and_the_fox_act_over_http(make_table):
    table = make_table(10)
    table.start(**ALL)
    seat = holders(table)
    child, fox = seat["wild_child"], seat["fox"]
    until(table, "wild_child")
    before = unchanged(table)
    for body, code in (({"target": child}, "invalid_target"), ({"target": 99}, "invalid_target"), ({}, "invalid_target")):
        response = table.seats[child].act(table.id, "wild_child.model", **body)
        assert response.status_code == 400 and error_code(response) == code, body
    assert unchanged(table) == before
    model = seat["elder"]
    assert table.seats[child].act(table.id, "wild_child.model", target=model).status_code == 200
    assert table.seats[child].state(table.id)["me"]["model"] == model
    assert "model" not in table.seats[fox].state(table.id)["me"]
    until(table, "fox")
    assert table.seats[fox].state(table.id)["me"]["flair"] is True
    response = table.seats[child].act(table.id, "fox.sniff", target=fox)
    assert response.status_code in (403, 409) and error_code(response) == "not_your_turn"
    assert table.seats[fox].act(table.id, "fox.sniff", target=seat["white_werewolf"]).status_code == 200
    sniff = [e for e in table.seats[fox].state(table.id)["events"] if e["kind"] == "fox_sniff"][-1]
    assert sniff["wolf"] is True and seat["white_werewolf"] in sniff["group"]
    assert not [e for e in table.seats[child].state(table.id)["events"] if e["kind"] == "fox_sniff"]


def test_the_piper_charms_over_http_with_count(make_table):
    table = make_table(10)
    table.start(**ALL)
    seat = holders(table)
    piper = seat["piper"]
    until(table, "piper")
    spec = {a["action"]: a for a in table.seats[piper].state(table.id)["prompt"]["actions"]}["piper.charm"]
    assert spec["count"] == 2 and piper not in spec["choices"]
    a, b = spec["choices"][:2]
    for targets in ([a], [a, a], [piper, a], [a, 99]):
        response = table.seats[piper].act(table.id, "piper.charm", targets=targets)
        assert response.status_code == 400 and error_code(response) == "invalid_target", targets
    assert table.seats[piper].act(table.id, "piper.charm", targets=[a, b]).status_code == 200


def test_the_white_werewolf_devours_a_wolf_over_http_on_night_two(make_table):
    table = make_table(10)
    table.start(**ALL)
    seat = holders(table)
    white = seat["white_werewolf"]
    wolves = [s for s, v in table.views().items() if v["me"]["role"] == "werewolf"]
    assert table.seats[wolves[0]].state(table.id)["players"][white - 1]["role"] == "werewolf"   # the pack face
    until(table, "white_werewolf", night=2)
    state = table.seats[white].state(table.id)   # every step timed out: nobody died yet
    choices = {a["action"]: a for a in state["prompt"]["actions"]}["white_werewolf.devour"]["choices"]
    assert sorted(choices) == sorted(wolves)
    other = next(s for s in table.seats if s not in choices and s != white)
    response = table.seats[white].act(table.id, "white_werewolf.devour", target=other)
    assert response.status_code == 400 and error_code(response) == "invalid_target"
    assert table.seats[white].act(table.id, "white_werewolf.done").status_code == 200


def test_the_scapegoat_names_the_voters_over_http(make_table):
    table = make_table(10)
    table.start(**ALL)
    seat = holders(table)
    goat = seat["scapegoat"]
    until(table, "vote")
    living = [s for s, v in table.views().items() if v["me"]["alive"]]
    a, b = [s for s in living if s != goat][:2]
    voters = [s for s in living if s not in (a, b)]
    for i, voter in enumerate(voters[:len(voters) - len(voters) % 2]):
        table.seats[voter].act(table.id, "vote.cast", target=a if i % 2 == 0 else b)
    table.finish_step()
    view = table.seats[goat].state(table.id)
    assert view["step"]["id"] == "scapegoat" and view["step"]["actor"] == goat and not view["me"]["alive"]
    spec = view["prompt"]["actions"][0]
    assert spec["action"] == "scapegoat.voters" and spec["min"] == 0 and "count" not in spec
    response = table.seats[goat].act(table.id, "scapegoat.voters", targets=[a, a])
    assert response.status_code == 400 and error_code(response) == "invalid_target"
    assert table.seats[goat].act(table.id, "scapegoat.voters", targets=[a]).status_code == 200
    events = [e for e in table.seats[b].state(table.id)["events"] if e["kind"] == "scapegoat_voters"]
    assert events and events[-1]["seats"] == [a]
    until(table, "debate")
    assert table.seats[b].state(table.id)["players"][b - 1]["voter"] is False
