"""The state poll: ETag and 304, presence without a write per poll, overdue steps."""
import pytest
from sqlalchemy import event

from werewolf import engine, service, store
from werewolf.extensions import db
from werewolf.web import poll


@pytest.fixture
def writes(app):
    """Counts the SQL statements that change the database."""
    statements = []
    with app.app_context():
        engine_ = db.engine

    def record(conn, cursor, statement, *args):
        if statement.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            statements.append(statement)

    event.listen(engine_, "before_cursor_execute", record)
    yield statements
    event.remove(engine_, "before_cursor_execute", record)


def test_304_when_nothing_changed_then_200_when_it_did(make_table):
    table = make_table(6)
    alice, bruno = table.players[:2]
    first = alice.state_response(table.id)
    etag = first.headers["ETag"]
    assert first.status_code == 200 and etag
    again = alice.state_response(table.id, etag)
    assert again.status_code == 304 and again.get_data() == b"" and again.headers["ETag"] == etag
    table.host.request("PATCH", f"/api/tables/{table.id}/settings", {"captain": False})
    changed = alice.state_response(table.id, etag)
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert changed.get_json()["table"]["settings"]["captain"] is False
    assert changed.get_json()["version"] != first.get_json()["version"]


def test_a_secret_action_at_night_moves_every_living_view_alike_and_shows_only_to_those_who_see_it(make_table):
    table = make_table(8).start(roles={"cupid": False, "seer": False})
    views = table.views()
    wolves = [s for s, v in views.items() if v["me"]["role"] == "werewolf"]
    villager = next(s for s, v in views.items() if v["me"]["role"] == "villager")
    assert views[villager]["step"]["id"] == "werewolves" and len(wolves) == 2
    etags = {s: table.seats[s].state_response(table.id).headers["ETag"] for s in (villager, *wolves)}
    target = villager
    assert table.seats[wolves[0]].act(table.id, "werewolves.designate", target=target).status_code == 200
    seen = table.seats[villager].state_response(table.id, etags[villager])
    assert seen.status_code == 200 and "designations" not in seen.get_json()
    for wolf in wolves:
        response = table.seats[wolf].state_response(table.id, etags[wolf])
        assert response.status_code == 200
        assert response.get_json()["designations"] == {str(wolves[0]): target}
        assert len(response.get_data()) == len(seen.get_data())  # padded alike


def test_304_builds_no_view_and_decodes_nothing(make_table, monkeypatch):
    table = make_table(6).start()
    alice = table.players[0]
    etag = alice.state_response(table.id).headers["ETag"]
    calls = []
    monkeypatch.setattr(engine, "view_for", lambda *a: calls.append("view"))
    monkeypatch.setattr(store, "_decode", lambda row: calls.append("decode"))
    assert alice.state_response(table.id, etag).status_code == 304
    assert calls == []


def test_seconds_left_moves_without_changing_the_etag(make_table, clock):
    """A cached view's seconds_left is fresh: the ETag and version stay, the deadline too."""
    table = make_table(6).start()
    first = table.host.state_response(table.id)
    clock.advance(1.25)
    second = table.host.state_response(table.id)
    assert second.headers["ETag"] == first.headers["ETag"]
    views = [r.get_json() for r in (first, second)]
    assert views[0]["version"] == views[1]["version"]
    assert views[1]["step"]["seconds_left"] == pytest.approx(views[0]["step"]["seconds_left"] - 1.25, abs=0.051)
    assert views[1]["step"]["deadline"] == views[0]["step"]["deadline"]


def test_polls_do_not_write_every_time(make_table, clock, writes):
    table = make_table(6)
    alice = table.players[0]
    alice.state(table.id)
    writes.clear()
    for _ in range(int(service.PRESENCE_WRITE_EVERY) - 1):
        clock.advance(1)
        alice.state(table.id)
    assert writes == []
    clock.advance(2)  # more than PRESENCE_WRITE_EVERY since the last recorded presence
    alice.state(table.id)
    assert len(writes) == 1 and "last_seen" in writes[0]


def test_a_player_not_seen_for_20_seconds_is_disconnected(make_table, clock):
    table = make_table(6)
    alice, bruno = table.players[:2]
    for p in table.players:
        p.state(table.id)
    etag = alice.state_response(table.id).headers["ETag"]
    clock.advance(15)
    alice.state(table.id)  # Alice keeps polling, Bruno stops
    clock.advance(6)
    response = alice.state_response(table.id, etag)
    assert response.status_code == 200
    connected = {p["seat"]: p["connected"] for p in response.get_json()["players"]}
    assert connected[1] is True and connected[2] is False
    bruno.state(table.id)  # back: noted, written by a poll within Presence.FLUSH_EVERY
    clock.advance(poll.Presence.FLUSH_EVERY)
    alice.state(table.id)
    assert {p["seat"]: p["connected"] for p in alice.state(table.id)["players"]}[2] is True


def test_the_poll_advances_an_overdue_step(make_table, clock):
    table = make_table(6).start(roles={"cupid": False})
    view = table.host.state(table.id)
    assert view["step"]["id"] == "seer"
    clock.advance(view["step"]["seconds_left"] + 0.1)
    assert table.host.state(table.id)["step"]["id"] == "werewolves"


def test_the_page_reload_sees_the_same_view(make_table):
    table = make_table(6).start()
    alice = table.players[0]
    before = alice.state(table.id)
    fresh = type(alice)(alice.app, alice.name)  # a new browser logging in again
    login = fresh.post("/api/auth/login", {"name": alice.name, "password": alice.password})
    assert login.status_code == 200
    fresh.token = login.get_json()["csrf_token"]
    assert fresh.state(table.id) == before
