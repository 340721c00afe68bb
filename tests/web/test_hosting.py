"""Hosting never passes to an account that cannot log in (issue 33, finding 7): someone can
always end or reopen the table."""
import random

from tests.web.conftest import Player
from tests.web.test_accounts import _cli


def _delete(player: Player):
    response = player.request("DELETE", "/api/me", {"password": player.password})
    assert response.status_code == 200, response.get_json()


def _host_of(table, player: Player) -> bool:
    view = player.state(table.id)
    return view["table"]["host_seat"] == view["me"]["seat"]


def test_a_deleting_host_hands_a_running_game_to_a_player_who_can_still_end_it(make_table):
    table = make_table(6).start()
    host, second, third = (table.seats[n] for n in (1, 2, 3))
    _delete(second)
    _delete(host)
    assert _host_of(table, third)
    assert third.post(f"/api/tables/{table.id}/end").status_code == 200
    assert third.post(f"/api/tables/{table.id}/reopen").status_code == 200


def test_a_leaving_host_skips_a_deleted_account(make_table):
    table = make_table(6).start()
    host, second, third = (table.seats[n] for n in (1, 2, 3))
    _delete(second)
    assert host.post(f"/api/tables/{table.id}/leave").status_code == 200
    assert _host_of(table, third)
    assert third.post(f"/api/tables/{table.id}/end").status_code == 200


def test_after_the_end_the_new_host_reopens_without_the_deleted_account(make_table):
    table = make_table(6).start()
    table.play_to_end(random.Random(5))
    host, second, third = (table.seats[n] for n in (1, 2, 3))
    _delete(second)
    _delete(host)
    assert _host_of(table, third)
    assert third.post(f"/api/tables/{table.id}/reopen").status_code == 200
    lobby = third.state(table.id)
    assert second.name not in [p["name"] for p in lobby["players"]]
    assert lobby["table"]["host_seat"] == lobby["me"]["seat"]


def test_a_host_leaving_a_waiting_table_skips_a_disabled_account(make_table):
    table = make_table(3)
    host, second, third = table.players
    _cli(table.app, "users", "disable", second.name)
    assert host.post(f"/api/tables/{table.id}/leave").status_code == 200
    assert _host_of(table, third)


def test_a_disabled_host_hands_the_table_on(make_table):
    table = make_table(6).start()
    host, third = table.seats[1], table.seats[2]
    _cli(table.app, "users", "disable", host.name)
    assert _host_of(table, third)
    assert third.post(f"/api/tables/{table.id}/end").status_code == 200
