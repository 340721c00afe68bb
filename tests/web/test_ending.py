"""A game nobody plays ends: the host ends it for everyone, a player leaves a running game."""
from .test_auth import error_code


def test_the_host_ends_a_running_game_for_everyone(make_table):
    table = make_table(6).start()
    guest = table.players[1]
    refused = guest.post(f"/api/tables/{table.id}/end")
    assert refused.status_code == 403 and error_code(refused) == "not_host"
    assert guest.state(table.id)["status"] == "running"

    response = table.host.post(f"/api/tables/{table.id}/end")
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["table"]["status"] == "ended"
    for view in table.views().values():
        assert view["table"]["status"] == "ended" and view["step"] is None and view["prompt"] is None
        assert view["winner"] == {"camp": "none", "reason": "stopped", "seats": []}
        assert all("role" in p for p in view["players"])
        assert set(view["chat"]) == {"village", "werewolves", "dead"}

    again = table.host.post(f"/api/tables/{table.id}/end")
    assert again.status_code == 409 and error_code(again) == "game_not_running"
    assert table.host.post(f"/api/tables/{table.id}/reopen").status_code == 200


def test_ending_needs_a_running_game(make_table):
    table = make_table(6)
    response = table.host.post(f"/api/tables/{table.id}/end")
    assert response.status_code == 409 and error_code(response) == "game_not_running"
    assert table.host.post("/api/tables/nope/end").status_code == 404


def test_a_player_leaves_a_running_game_and_plays_no_more(make_table):
    table = make_table(6).start()
    seat, leaver = next((s, p) for s, p in table.seats.items() if p is not table.host)
    response = leaver.post(f"/api/tables/{table.id}/leave")
    assert response.status_code == 200, response.get_json()
    view = leaver.state(table.id)
    assert view["me"]["left"] is True and view["prompt"] is None and view["channels"]["write"] is None
    others = table.host.state(table.id)
    assert next(p for p in others["players"] if p["seat"] == seat)["left"] is True
    assert any(e["kind"] == "player_left" and e["seat"] == seat for e in others["events"])
    refused = leaver.act(table.id, "vote.cast", target=1)
    assert refused.status_code == 403 and error_code(refused) == "left_game"

    # After the game, the table goes back to the waiting room without them.
    table.host.post(f"/api/tables/{table.id}/end")
    assert table.host.post(f"/api/tables/{table.id}/reopen").status_code == 200
    lobby = table.host.state(table.id)
    assert leaver.name not in [p["name"] for p in lobby["players"]] and len(lobby["players"]) == 5


def test_the_host_who_leaves_a_running_game_hands_over(make_table):
    table = make_table(6).start()
    host = table.host
    assert host.post(f"/api/tables/{table.id}/leave").status_code == 200
    view = table.players[1].state(table.id)
    new_host = view["table"]["host_seat"]
    assert new_host != next(s for s, p in table.seats.items() if p is host)
    assert table.seats[new_host].post(f"/api/tables/{table.id}/end").status_code == 200
