"""The one function that answers a state poll (web/poll.state_answer).

It reads the session and the table in one statement, builds views from the cached game
and keeps serialized views by ETag. These tests check, seat by seat through whole games,
that what it answers from its kept reads and views is what it builds from nothing, and
that a 304 or a repeated view loads no user and builds no view; then ETags and 304s,
presence without a write per poll, overdue steps.
"""
import random

import pytest
from sqlalchemy import event, select

from werewolf import changes, engine, service, store
from werewolf.extensions import db, login_manager
from werewolf.models import Seat
from werewolf.web import phone, poll, view


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


def views_from_nothing(table) -> dict[int, tuple]:
    """Every seat's (status, ETag, JSON), with every cache emptied first."""
    for player in table.seats.values():
        player.state(table.id)  # everyone's presence written now, so "connected" agrees
    out = {}
    for seat, player in table.seats.items():
        with table.app.app_context():
            view.view_cache().clear()
        table.app.extensions.pop("werewolf.poll_reads", None)
        store.game_cache.clear()
        response = player.state_response(table.id)
        out[seat] = (response.status_code, response.headers["ETag"], response.get_json())
    return out


def views_kept(table) -> dict[int, tuple]:
    out = {}
    for seat, player in table.seats.items():
        response = player.state_response(table.id)
        out[seat] = (response.status_code, response.headers["ETag"], response.get_json())
    return out


@pytest.mark.parametrize("size,seed", [(8, 5), (18, 6)])
def test_kept_views_equal_views_built_from_nothing_through_a_whole_game(make_table, size, seed):
    table = make_table(size).start()
    rng = random.Random(seed)
    for _ in range(40):
        expected = views_from_nothing(table)
        assert views_kept(table) == expected  # the kept read, the cached game and views
        view = next(iter(expected.values()))[2]
        if view["status"] == "ended":
            break
        actors = [(s, v[2]["prompt"]) for s, v in expected.items() if v[2]["prompt"]]
        if not actors or rng.random() < 0.2:
            table.finish_step()
            continue
        seat, prompt = rng.choice(actors)
        spec = rng.choice(prompt["actions"])
        body = {"action": spec["action"], "step": prompt["step"]}
        if spec.get("count"):
            body["targets"] = rng.sample(spec["choices"], spec["count"])
        elif spec.get("choices"):
            body["target"] = rng.choice(spec["choices"])
        table.seats[seat].act(table.id, **body)
        if rng.random() < 0.5 and expected[seat][2]["channels"]["write"]:
            table.seats[seat].chat(table.id, expected[seat][2]["channels"]["write"], "<b>hé</b> \\u0000")


def test_a_304_and_a_repeated_view_load_no_user_and_build_no_view(make_table, monkeypatch):
    table = make_table(6).start()
    alice = table.players[0]
    first = alice.state_response(table.id)
    etag = first.headers["ETag"]

    def no_user(_):
        raise AssertionError("the poll loaded the user row")

    calls = []
    monkeypatch.setattr(login_manager, "_user_callback", no_user)
    monkeypatch.setattr(engine, "view_for", lambda *a: calls.append("view"))
    monkeypatch.setattr(store, "_decode", lambda row: calls.append("decode"))
    assert alice.state_response(table.id, etag).status_code == 304
    again = alice.state_response(table.id)
    assert again.status_code == 200 and again.headers["ETag"] == etag
    assert again.get_json() == first.get_json()
    assert calls == []


def test_a_change_at_night_makes_each_living_seats_view_once(make_table, monkeypatch):
    """Every living phone is answered after a change at night: each seat's view is made
    once, and the size they are all padded to is measured on those same views."""
    table = make_table(8).start()
    wolf = next(s for s, v in table.views().items() if v["me"]["role"] == "werewolf")
    etags = {seat: phone.state_response(table.id).headers["ETag"] for seat, phone in table.seats.items()}
    made = []
    real = engine.view_for
    monkeypatch.setattr(engine, "view_for", lambda game, seat, now, *shared: made.append(seat) or real(game, seat, now, *shared))
    assert table.seats[wolf].chat(table.id, "werewolves", "qui ?").status_code == 201
    sizes = set()
    for seat, player in table.seats.items():
        response = player.state_response(table.id, etags[seat])
        assert response.status_code == 200
        sizes.add(len(response.get_data()))
    assert sorted(made) == sorted(table.seats)
    assert len(sizes) == 1


def test_lists_serialized_once_leave_the_bodies_as_they_were():
    """view.serialize_shared_once puts the bytes of the lists the views share in their place:
    each body is the same, byte for byte, and so is the size they are padded to."""
    now = 1_800_000_000.0
    game = engine.new_game([f"P{i}" for i in range(1, 10)], engine.default_settings(), 3, now)
    while game.day < 2:
        for seat in range(1, 10):
            for channel in engine.writable_channels(game, seat):
                engine.post_chat(game, seat, channel, f"« {channel} » ? {seat} 🐺", now)
        now = game.deadline
        engine.advance(game, now)
    views = engine.views_for(game, range(1, 10), now)
    bodies = {seat: view.serialize(dict(made)) for seat, made in views.items()}
    view.serialize_shared_once(views.values())
    assert {seat: view.serialize(dict(made)) for seat, made in views.items()} == bodies
    assert len({len(body) for body in bodies.values()}) > 1  # the views differ: the test compares something


def test_a_304_works_out_no_page_language(make_table, monkeypatch):
    """A 304 has no body: the pages' Content-Language (phone.py) is not worked out for it."""
    table = make_table(6).start()
    alice = table.players[0]
    etag = alice.state_response(table.id).headers["ETag"]
    asked = []
    monkeypatch.setattr(phone, "language", lambda: asked.append("language") or "fr")
    assert alice.state_response(table.id, etag).status_code == 304
    assert asked == []


def test_the_lobby_and_refusals(make_table, make_player):
    table = make_table(3)
    view = table.host.state(table.id)
    assert view["status"] == "lobby" and [p["name"] for p in view["players"]] == [p.name for p in table.players]
    stranger = make_player()
    response = stranger.state_response(table.id)
    assert response.status_code == 403 and response.get_json()["error"]["code"] == "not_seated"
    response = stranger.state_response("no-such-table")
    assert response.status_code == 404 and response.get_json()["error"]["code"] == "table_not_found"
    stranger.post("/api/auth/logout")
    response = stranger.state_response(table.id)
    assert response.status_code == 401 and response.get_json()["error"]["code"] == "login_required"


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


def test_the_page_reload_sees_the_same_view(make_table):
    table = make_table(6).start()
    alice = table.players[0]
    before = alice.state(table.id)
    fresh = type(alice)(alice.app, alice.name)  # a new browser logging in again
    login = fresh.post("/api/auth/login", {"name": alice.name, "password": alice.password})
    assert login.status_code == 200
    fresh.token = login.get_json()["csrf_token"]
    assert fresh.state(table.id) == before


def test_a_step_past_its_deadline_moves_on_at_the_next_poll(make_table, clock):
    table = make_table(6).start(roles={"cupid": False})
    first = table.host.state_response(table.id)
    assert first.get_json()["step"]["id"] == "seer"
    clock.advance(first.get_json()["step"]["seconds_left"] + 0.1)
    response = table.host.state_response(table.id, first.headers["ETag"])
    assert response.status_code == 200 and response.get_json()["step"]["id"] == "werewolves"


def test_the_presence_of_many_polls_is_written_together(make_table, clock, app, writes):
    table = make_table(6).start(roles={"cupid": False, "seer": False, "witch": False})
    clock.advance(1)
    for player in table.players:
        player.state(table.id)
    writes.clear()
    clock.advance(11)
    for player in table.players:  # all due: the first poll writes, the others wait
        player.state(table.id)
    clock.advance(poll.Presence.FLUSH_EVERY)
    table.host.state(table.id)  # writes everyone still waiting, in one statement
    assert len(writes) == 2 and all("last_seen" in w for w in writes)
    with app.app_context():
        seen = db.session.scalars(select(Seat.last_seen).where(Seat.table_id == table.id)).all()
    assert len(seen) == 6 and min(seen) >= clock.now - poll.Presence.FLUSH_EVERY


def test_a_polls_answers_carry_the_security_headers(make_table):
    table = make_table(6).start()
    alice = table.players[0]
    first = alice.state_response(table.id)
    not_modified = alice.state_response(table.id, first.headers["ETag"])
    again = alice.state_response(table.id)
    assert (not_modified.status_code, again.status_code) == (304, 200)
    for response in (first, not_modified, again):
        assert response.headers["Content-Security-Policy"].startswith("default-src 'self'")
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Cache-Control"] == "no-cache, private"
        assert response.headers["Vary"] == "Cookie"
    assert again.headers["Content-Type"] == "application/json"
    assert again.get_json() == first.get_json()


def _login_of(app, player) -> str:
    """What Flask-Login keeps in the player's session: "<id>:<key>.<session>"."""
    cookie = player.client.get_cookie("session", domain=app.config["SERVER_NAME"])
    return app.session_interface.get_signing_serializer(app).loads(cookie.value)["_user_id"]


def _session_cookie_of(app, data: dict, signed_at: int | None = None) -> str:
    serializer = app.session_interface.get_signing_serializer(app)
    if signed_at is not None:
        serializer.signer = type("SignedThen", (serializer.signer,), {"get_timestamp": lambda self: signed_at})
    return serializer.dumps(data)


@pytest.mark.parametrize("how", ["tampered", "expired", "other key", "no user"])
def test_a_bad_session_cookie_is_refused_as_flask_refuses_it(make_table, how):
    import time

    from itsdangerous import URLSafeTimedSerializer

    table = make_table(6).start()
    app, alice = table.app, table.players[0]
    login = _login_of(app, alice)
    lifetime = int(app.permanent_session_lifetime.total_seconds())
    if how == "tampered":
        good = _session_cookie_of(app, {"_user_id": login})
        cookie = good[:-2] + ("AA" if not good.endswith("AA") else "BB")
    elif how == "expired":
        cookie = _session_cookie_of(app, {"_user_id": login}, int(time.time()) - lifetime - 60)
    elif how == "other key":
        cookie = URLSafeTimedSerializer("not the key", salt="cookie-session").dumps({"_user_id": login})
    else:
        cookie = _session_cookie_of(app, {"lang": "fr"})
    client = app.test_client()
    client.set_cookie("session", cookie, domain=app.config["SERVER_NAME"])
    response = client.get(f"/api/tables/{table.id}/state")
    assert response.status_code == 401 and response.get_json()["error"]["code"] == "login_required"


def test_a_forged_session_for_a_seated_player_works_only_with_the_key(make_table):
    """The poll trusts exactly what Flask's session would: a cookie signed with the app's key,
    naming the account with its current session key."""
    table = make_table(6).start()
    app, alice = table.app, table.players[0]
    login = _login_of(app, alice)
    user_id, key = login.split(":")[0], login.split(":")[1].split(".")[0]
    for value, status in ((login, 200), (user_id, 401), (f"{user_id}:0000000000000000", 401),
                          (f"{user_id}:{key}", 401), (f"{user_id}:{key}.0000000000000000", 401)):
        client = app.test_client()
        client.set_cookie("session", _session_cookie_of(app, {"_user_id": value}),
                          domain=app.config["SERVER_NAME"])
        assert client.get(f"/api/tables/{table.id}/state").status_code == status, value


def test_strong_session_protection_polls_through_flask_login(make_table):
    table = make_table(6).start()
    alice = table.players[0]
    etag = alice.state_response(table.id).headers["ETag"]
    table.app.config["SESSION_PROTECTION"] = "strong"
    assert alice.state_response(table.id).status_code == 200
    assert alice.state_response(table.id, etag).status_code == 304


def test_a_read_older_than_the_game_it_decodes_still_shows_the_end_once_read_again(make_table, app, monkeypatch):
    """A write may commit between a poll's read of the table (the game running) and its
    decoding of the game (ended): that view says the table runs and the game ended. Its
    ETag must not be the next read's, or the ended table's own view never replaces it and
    the page never shows the end (seen in a browser test on a busy machine)."""
    table = make_table(6).start(roles={"cupid": False})
    table.play_to_end(random.Random(5))
    host = table.host
    real = store.read_table_for_poll

    def before_the_end(*args):
        read = real(*args)
        return read._replace(game_status="running", game_rev=read.game_rev - 1)

    monkeypatch.setattr(store, "read_table_for_poll", before_the_end)
    for kept in (app.extensions["werewolf.poll_reads"], poll._living_kept, view.view_cache(app)):
        kept.clear()
    torn = host.state_response(table.id, None)
    assert torn.get_json()["status"] == "ended" and torn.get_json()["table"]["status"] == "running"
    monkeypatch.setattr(store, "read_table_for_poll", real)
    with app.app_context():
        changes.of(db.engine).bump((table.id,))  # the write's bump, after its commit
    again = host.state_response(table.id, torn.headers["ETag"])
    assert again.status_code == 200 and again.get_json()["table"]["status"] == "ended"
