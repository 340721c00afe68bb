"""Tables before the start (RULES.md §9): create, list, join, leave, settings, remove, start."""
import re

from werewolf.models import CODE_ALPHABET

from .test_auth import error_code


def test_create_seats_the_host_with_a_readable_code(make_player):
    alice = make_player()
    response = alice.post("/api/tables", {"name": "Chez Alice"})
    assert response.status_code == 201
    table = response.get_json()["table"]
    assert table["name"] == "Chez Alice" and table["status"] == "lobby"
    assert re.fullmatch(f"[{CODE_ALPHABET}]{{5}}", table["code"])
    assert not set("IO01") & set(table["code"])
    view = alice.state(table["id"])
    assert view["me"]["seat"] == 1 and view["table"]["host_seat"] == 1
    assert [p["name"] for p in view["players"]] == [alice.name]


def test_listing_shows_waiting_tables_only(make_table, make_player):
    waiting = make_table(2)
    assert waiting.host.post(f"/api/tables/{waiting.id}/visibility", {"public": True}).status_code == 200
    started = make_table(6)
    assert started.host.post(f"/api/tables/{started.id}/visibility", {"public": True}).status_code == 200
    started.start()
    bob = make_player()
    tables = bob.client.get("/api/tables").get_json()["tables"]
    by_id = {t["id"]: t for t in tables}
    assert waiting.id in by_id and started.id not in by_id
    assert {"id", "code", "name", "seated"} <= set(by_id[waiting.id])
    assert by_id[waiting.id]["seated"] == 2


def test_join_by_code_and_twice(make_player):
    alice, bruno = make_player(), make_player()
    table_id = alice.create_table()
    code = alice.state(table_id)["table"]["code"]
    found = bruno.client.get(f"/api/tables/by-code/{code.lower()}")
    assert found.status_code == 200 and found.get_json()["table"]["id"] == table_id
    assert bruno.join(table_id).status_code == 200
    assert bruno.join(table_id).status_code == 200  # harmless
    assert [p["seat"] for p in alice.state(table_id)["players"]] == [1, 2]
    missing = bruno.client.get("/api/tables/by-code/ZZZZZ")
    assert missing.status_code == 404 and error_code(missing) == "table_not_found"


def test_join_a_started_table_is_a_conflict(make_table, make_player):
    table = make_table(6).start()
    late = make_player()
    response = late.join(table.id)
    assert response.status_code == 409 and error_code(response) == "game_running"


def test_table_holds_at_most_18(make_table, make_player):
    table = make_table(18)
    response = make_player().join(table.id)
    assert response.status_code == 409 and error_code(response) == "table_full"


def test_host_leaving_passes_host_to_the_next_joined(make_table):
    table = make_table(3)
    alice, bruno, chloe = table.players
    assert alice.post(f"/api/tables/{table.id}/leave").status_code == 200
    view = chloe.state(table.id)
    assert view["table"]["host_seat"] == 2  # Bruno joined right after Alice
    assert [p["name"] for p in view["players"]] == [bruno.name, chloe.name]
    not_seated = alice.client.get(f"/api/tables/{table.id}/state")
    assert not_seated.status_code == 403 and error_code(not_seated) == "not_seated"


def test_only_the_host_changes_settings(make_table):
    table = make_table(2)
    host, guest = table.players
    refused = guest.request("PATCH", f"/api/tables/{table.id}/settings", {"captain": False})
    assert refused.status_code == 403 and error_code(refused) == "not_host"
    ok = host.request("PATCH", f"/api/tables/{table.id}/settings",
                      {"roles": {"cupid": False}, "limits": {"debate": 30}})
    assert ok.status_code == 200
    settings = guest.state(table.id)["table"]["settings"]
    assert settings["roles"]["cupid"] is False and settings["roles"]["seer"] is True
    assert settings["limits"]["debate"] == 30 and settings["captain"] is True


def test_host_removes_a_player_before_the_start(make_table):
    table = make_table(3)
    host, bruno, chloe = table.players
    assert bruno.request("DELETE", f"/api/tables/{table.id}/seats/3").status_code == 403
    assert host.request("DELETE", f"/api/tables/{table.id}/seats/1").status_code == 400
    assert host.request("DELETE", f"/api/tables/{table.id}/seats/9").status_code == 404
    assert host.request("DELETE", f"/api/tables/{table.id}/seats/2").status_code == 200
    assert [p["name"] for p in host.state(table.id)["players"]] == [host.name, chloe.name]
    assert bruno.client.get(f"/api/tables/{table.id}/state").status_code == 403


def test_start_needs_the_host_and_six_players(make_table, make_player):
    table = make_table(5)
    refused = table.host.post(f"/api/tables/{table.id}/start")
    assert refused.status_code == 409 and error_code(refused) == "bad_player_count"
    sixth = make_player()
    sixth.join(table.id)
    assert sixth.post(f"/api/tables/{table.id}/start").status_code == 403
    assert table.host.post(f"/api/tables/{table.id}/start").status_code == 200
    again = table.host.post(f"/api/tables/{table.id}/start")
    assert again.status_code == 409 and error_code(again) == "game_running"
    assert sixth.state(table.id)["table"]["status"] == "running"


def test_seats_are_renumbered_at_the_start(make_table, make_player):
    table = make_table(7)
    table.players[2].post(f"/api/tables/{table.id}/leave")  # seat 3 leaves a gap
    table.players = table.players[:2] + table.players[3:]
    table.start()
    assert sorted(table.seats) == [1, 2, 3, 4, 5, 6]
    view = table.host.state(table.id)
    assert [p["seat"] for p in view["players"]] == [1, 2, 3, 4, 5, 6]
    assert [p["name"] for p in view["players"]] == [p.name for p in table.players]


def test_settings_are_frozen_once_started(make_table):
    table = make_table(6).start()
    response = table.host.request("PATCH", f"/api/tables/{table.id}/settings", {"captain": False})
    assert response.status_code == 409


def test_start_uses_the_settings_and_time_scale(make_app):
    app = make_app(TIME_SCALE=0.5)
    from .conftest import Player  # players of this app, not of the default one
    players = [Player(app, f"P{i}").register() for i in range(6)]
    table_id = players[0].create_table()
    for p in players[1:]:
        p.join(table_id)
    players[0].request("PATCH", f"/api/tables/{table_id}/settings",
                       {"roles": {"cupid": False, "seer": False}, "limits": {"werewolves": 40}})
    players[0].post(f"/api/tables/{table_id}/start")
    view = players[0].state(table_id)
    assert view["composition"].get("cupid", 0) == 0 and view["composition"].get("seer", 0) == 0
    assert view["step"]["id"] == "werewolves"
    assert view["step"]["seconds_left"] == 20  # 40 s x 0.5
