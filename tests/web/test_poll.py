"""The one function that answers a state poll (web/poll.state_answer).

It reads the session and the table in one statement, builds views from the cached game
and keeps serialized views by ETag. These tests check, seat by seat through whole games,
that what it answers from its kept reads and views is what it builds from nothing, and
that a 304 or a repeated view loads no user and builds no view.
"""
import random

import pytest

from werewolf import engine, store
from werewolf.extensions import login_manager
from werewolf.web import phone, poll, view


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
    monkeypatch.setattr(engine, "view_for", lambda game, seat, now: made.append(seat) or real(game, seat, now))
    assert table.seats[wolf].chat(table.id, "werewolves", "qui ?").status_code == 201
    sizes = set()
    for seat, player in table.seats.items():
        response = player.state_response(table.id, etags[seat])
        assert response.status_code == 200
        sizes.add(len(response.get_data()))
    assert sorted(made) == sorted(table.seats)
    assert len(sizes) == 1


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


def test_a_step_past_its_deadline_moves_on_at_the_next_poll(make_table, clock):
    table = make_table(6).start(roles={"cupid": False})
    first = table.host.state_response(table.id)
    assert first.get_json()["step"]["id"] == "seer"
    clock.advance(first.get_json()["step"]["seconds_left"] + 0.1)
    response = table.host.state_response(table.id, first.headers["ETag"])
    assert response.status_code == 200 and response.get_json()["step"]["id"] == "werewolves"


def test_the_presence_of_many_polls_is_written_together(make_table, clock, app):
    from sqlalchemy import event, select

    from werewolf.extensions import db
    from werewolf.models import Seat

    table = make_table(6).start(roles={"cupid": False, "seer": False, "witch": False})
    clock.advance(1)
    for player in table.players:
        player.state(table.id)
    updates = []

    def record(conn, cursor, statement, *args):
        if statement.lstrip().upper().startswith("UPDATE"):
            updates.append(statement)

    with app.app_context():
        engine_ = db.engine
    event.listen(engine_, "before_cursor_execute", record)
    try:
        clock.advance(11)
        for player in table.players:  # all due: the first poll writes, the others wait
            player.state(table.id)
        clock.advance(poll.Presence.FLUSH_EVERY)
        table.host.state(table.id)  # writes everyone still waiting, in one statement
    finally:
        event.remove(engine_, "before_cursor_execute", record)
    assert len(updates) == 2 and all("last_seen" in u for u in updates)
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
