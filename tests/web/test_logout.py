"""Log-out ends the session on the server, "log out everywhere" ends them all (issue 33,
finding 6): cookies kept from before no longer log anyone in, on any path (Flask-Login's,
the poll gate's)."""
from tests.web.conftest import Player
from werewolf.models import MAX_SESSIONS

COOKIES = ("session", "remember_token")


def _saved(player: Player) -> dict:
    domain = player.app.config["SERVER_NAME"]
    return {name: player.client.get_cookie(name, domain=domain).value for name in COOKIES}


def _replayed(app, cookies: dict, only: str | None = None):
    """A new client with a copy of saved cookies (all of them, or ``only`` one)."""
    client = app.test_client()
    for name, value in cookies.items():
        if only in (None, name):
            client.set_cookie(name, value, domain=app.config["SERVER_NAME"])
    return client


def _user(client):
    return client.get("/api/me").get_json()["user"]


def _second_device(player: Player) -> Player:
    other = Player(player.app, player.name, player.password)
    assert other.post("/api/auth/login", {"name": player.name, "password": player.password}).status_code == 200
    return other


def test_saved_cookies_do_not_log_in_after_log_out(make_table):
    table = make_table(6).start()
    alice = table.players[0]
    saved = _saved(alice)
    for only in (None, *COOKIES):  # before: each of them logs in, the state poll too
        assert _user(_replayed(table.app, saved, only))["name"] == alice.name
    assert _replayed(table.app, saved).get(f"/api/tables/{table.id}/state").status_code == 200

    assert alice.post("/api/auth/logout").get_json() == {"ok": True}
    for only in (None, *COOKIES):
        client = _replayed(table.app, saved, only)
        assert _user(client) is None, only
        response = client.get(f"/api/tables/{table.id}/state")
        assert response.status_code == 401 and response.get_json()["error"]["code"] == "login_required"


def test_logging_out_on_one_device_keeps_the_others(make_table):
    table = make_table(6).start()
    alice = table.players[0]
    phone = _second_device(alice)
    assert alice.post("/api/auth/logout").status_code == 200
    assert _user(phone.client)["name"] == alice.name
    assert phone.state_response(table.id).status_code == 200
    assert _user(_replayed(table.app, _saved(phone), "remember_token"))["name"] == alice.name


def test_log_out_everywhere_ends_every_session_of_the_account(make_table):
    table = make_table(6).start()
    alice, bruno = table.players[0], table.players[1]
    phone = _second_device(alice)
    saved = _saved(phone)
    response = alice.post("/api/auth/logout-everywhere")
    assert response.status_code == 200 and response.get_json() == {"ok": True}
    for client in (alice.client, phone.client, _replayed(table.app, saved),
                   _replayed(table.app, saved, "remember_token")):
        assert _user(client) is None
        assert client.get(f"/api/tables/{table.id}/state").status_code == 401
    assert bruno.state_response(table.id).status_code == 200  # nobody else's
    again = Player(table.app, alice.name, alice.password)
    assert again.post("/api/auth/login", {"name": alice.name, "password": alice.password}).status_code == 200
    assert again.state_response(table.id).status_code == 200


def test_log_out_everywhere_needs_a_login(client):
    token = client.get("/api/me").get_json()["csrf_token"]
    response = client.post("/api/auth/logout-everywhere", headers={"X-CSRFToken": token})
    assert response.status_code == 401 and response.get_json()["error"]["code"] == "login_required"


def test_an_account_keeps_its_latest_sessions(app):
    alice = Player(app, "Alice").register()
    devices = [_second_device(alice) for _ in range(MAX_SESSIONS - 1)]
    assert _user(alice.client) is not None  # MAX_SESSIONS sessions: all live
    _second_device(alice)
    assert _user(alice.client) is None  # one more ends the oldest
    assert all(_user(d.client) is not None for d in devices)


def test_the_account_page_offers_to_log_out_everywhere_in_each_language(app):
    alice = Player(app, "Alice").register()
    words = {"fr": "Me déconnecter partout", "en": "Log out everywhere", "zh": "在所有裝置登出"}
    for lang, word in words.items():
        page = alice.client.get(f"/account?lang={lang}").get_data(as_text=True)
        assert 'id="sessions-form"' in page and word in page, lang
