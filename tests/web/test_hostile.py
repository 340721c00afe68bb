"""Hostile input: forged requests, other people's seats and tables, nasty text, floods,
and the security headers and cookie flags every answer carries."""
import re

import pytest

from .test_auth import error_code

WRITE_ROUTES = [  # (method, path template, body) of every route that changes something
    ("POST", "/api/auth/logout", None),
    ("POST", "/api/tables", {"name": "x"}),
    ("POST", "/api/tables/{id}/join", None),
    ("POST", "/api/tables/{id}/leave", None),
    ("PATCH", "/api/tables/{id}/settings", {"captain": False}),
    ("POST", "/api/tables/{id}/start", None),
    ("POST", "/api/tables/{id}/reopen", None),
    ("DELETE", "/api/tables/{id}/seats/2", None),
    ("POST", "/api/tables/{id}/act", {"action": "witch.done"}),
    ("POST", "/api/tables/{id}/chat", {"channel": "village", "text": "bonjour"}),
]


def snapshot(app):
    """Every row of the database, to prove a refused request changed nothing."""
    from werewolf.extensions import db
    with app.app_context():
        dump = {}
        for table in db.metadata.sorted_tables:
            dump[table.name] = sorted(map(tuple, db.session.execute(table.select()).all()), key=repr)
        db.session.remove()
        return dump


@pytest.mark.parametrize("token", [None, "", "not-a-token", "forged.token.value"])
def test_every_write_without_a_valid_csrf_token_is_refused(app, make_table, token):
    table = make_table(6)
    host = table.host
    before = snapshot(app)
    for method, path, body in WRITE_ROUTES:
        headers = {} if token is None else {"X-CSRFToken": token}
        response = host.request(method, path.format(id=table.id), body, csrf=False, headers=headers)
        assert response.status_code in (400, 403), (method, path, response.status_code)
        assert error_code(response) == "csrf_failed"
    for path in ("/api/auth/login", "/api/auth/register"):
        response = host.client.post(path, json={"name": "Mallory", "password": "Lune pleine 42"})
        assert response.status_code in (400, 403) and error_code(response) == "csrf_failed"
    assert snapshot(app) == before


def test_another_accounts_token_does_not_work(app, make_table):
    table = make_table(6)
    alice, bruno = table.players[0], table.players[1]
    before = snapshot(app)
    response = alice.request("POST", f"/api/tables/{table.id}/leave", csrf=False,
                             headers={"X-CSRFToken": bruno.token})
    assert response.status_code in (400, 403) and error_code(response) == "csrf_failed"
    assert snapshot(app) == before


def _running(make_table, n=8, **settings):
    table = make_table(n).start(**settings)
    return table, table.views()


def test_acting_or_chatting_for_another_seat_is_impossible(make_table):
    table, views = _running(make_table, 8, roles={"cupid": False, "seer": False, "witch": False,
                                                  "hunter": False}, captain=False)
    while table.host.state(table.id)["step"]["id"] != "vote":
        table.finish_step()
    me, other = 1, 2
    # A seat in the body is not who I am: the vote is mine, and seat 2 has not voted.
    response = table.seats[me].post(f"/api/tables/{table.id}/act",
                                    {"action": "vote.cast", "target": 3, "seat": other})
    assert response.status_code == 200
    votes = table.seats[other].state(table.id)["votes"]
    assert votes.get(str(me)) == 3 and str(other) not in votes
    response = table.seats[me].post(f"/api/tables/{table.id}/chat",
                                    {"channel": "village", "text": "moi", "seat": other, "name": "x"})
    assert response.status_code == 201
    line = table.seats[other].state(table.id)["chat"]["village"][-1]
    assert line["text"] == "moi" and line["seat"] == me and line["name"] == table.seats[me].name


def test_no_view_of_a_table_one_is_not_seated_at(make_table, make_player):
    table, views = _running(make_table, 6)
    other = make_table(6)  # a second table, still waiting
    stranger = make_player("Intrus")
    seated_elsewhere = other.host
    wolf = next(s for s, v in views.items() if v["me"]["role"] == "werewolf")
    for intruder in (stranger, seated_elsewhere):
        before = table.seats[wolf].state(table.id)
        for method, suffix, body in (("GET", "/state", None),
                                     ("POST", "/act", {"action": "werewolves.designate", "target": 1}),
                                     ("POST", "/chat", {"channel": "werewolves", "text": "coucou"}),
                                     ("POST", "/join", None), ("POST", "/leave", None)):
            response = intruder.request(method, f"/api/tables/{table.id}{suffix}", body)
            assert response.status_code in (403, 409), (suffix, response.status_code)
            text = response.get_data(as_text=True)
            assert "werewolf" not in text and "role" not in text
        after = table.seats[wolf].state(table.id)
        assert after["events"] == before["events"] and after["chat"] == before["chat"]
    # Nobody learns another table's private view by naming a seat: there is no such route.
    response = stranger.client.get(f"/api/tables/{table.id}/state?seat={wolf}")
    assert response.status_code == 403
    # The table page itself holds no game data: a stranger gets the page a wolf gets.
    code = views[1]["table"]["code"]
    page = stranger.client.get(f"/t/{code}").get_data(as_text=True).replace(stranger.name, "NAME")
    wolf_page = table.seats[wolf].client.get(f"/t/{code}").get_data(as_text=True)
    seated = re.compile(r'data-seated="[01]"')  # whether to offer "join": not a secret
    assert seated.sub("", page) == seated.sub("", wolf_page.replace(table.seats[wolf].name, "NAME"))


def test_table_ids_cannot_be_guessed(make_table, make_player):
    tables = [make_table(1) for _ in range(3)]
    ids = [t.id for t in tables]
    assert all(re.fullmatch(r"[0-9a-f]{16}", i) for i in ids)  # 64 random bits each
    stranger = make_player("Curieux")
    for guess in ["1", "0", "../" + ids[0], ids[0][:-1], ids[0].upper(), ids[0] + "0",
                  "%00", "' OR 1=1 --", "a" * 300]:
        response = stranger.client.get(f"/api/tables/{guess}/state")
        assert response.status_code in (403, 404), guess
        assert response.status_code != 403 or guess in ids


NASTY = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "\"'><svg onload=alert(1)>",
    "javascript:alert(1)",
    "{{7*7}} ${7*7} %s %n",
    "Robert'); DROP TABLE users;--",
    "\u202e\u0644\u200d emoji 🐺",
]


@pytest.mark.parametrize("text", NASTY)
def test_markup_in_chat_is_stored_as_sent_and_never_rendered(make_table, text):
    table, views = _running(make_table, 6)
    wolf = next(s for s, v in views.items() if v["me"]["role"] == "werewolf")
    response = table.seats[wolf].chat(table.id, "werewolves", text)
    assert response.status_code == 201
    assert table.seats[wolf].state(table.id)["chat"]["werewolves"][-1]["text"] == text
    # The JSON is application/json (never sniffed as HTML): the page escapes when it renders.
    response = table.seats[wolf].state_response(table.id)
    assert response.mimetype == "application/json"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_markup_in_names_is_escaped_in_pages(app, make_player):
    player = make_player("<img src=x onerror=1>")
    page = player.client.get("/").get_data(as_text=True)
    assert "<img src=x" not in page and "&lt;img src=x onerror=1&gt;" in page
    table_id = player.create_table(name="<b>x</b>\"'")
    view = player.state(table_id)
    assert view["table"]["name"] == "<b>x</b>\"'" and view["me"]["name"] == "<img src=x onerror=1>"
    page = player.client.get(f"/t/{view['table']['code']}").get_data(as_text=True)
    assert "<b>x</b>" not in page


@pytest.mark.parametrize("char", ["\x00", "\x01", "\x08", "\x1b", "\x7f", "\r"])
def test_control_characters_are_refused(make_table, client, char):
    table, views = _running(make_table, 6)
    wolf = next(s for s, v in views.items() if v["me"]["role"] == "werewolf")
    before = table.seats[wolf].state(table.id)
    response = table.seats[wolf].chat(table.id, "werewolves", f"a{char}b")
    assert response.status_code == 400 and error_code(response) == "text_invalid"
    assert table.seats[wolf].state(table.id)["version"] == before["version"]
    headers = {"X-CSRFToken": client.get("/api/me").get_json()["csrf_token"]}
    response = client.post("/api/auth/register", json={"name": f"Ev{char}e", "password": "Lune pleine 42"},
                           headers=headers)
    if char.isspace():  # whitespace in names is folded to one space
        assert response.status_code == 201 and response.get_json()["user"]["name"] == "Ev e"
    else:
        assert response.status_code == 400 and error_code(response) == "invalid_name"


def test_a_nul_character_is_refused_before_reaching_the_database(make_table, client):
    """PostgreSQL refuses NUL in any query: a clear 401/404, never a 500."""
    table = make_table(6)
    player = table.players[1]
    for path in (f"/api/tables/{table.id}\x00/state", f"/api/tables/{table.id}\x00/join",
                 "/api/tables/by-code/AB\x00CD", "/t/AB\x00CD"):
        response = player.request("GET" if "join" not in path else "POST", path)
        assert response.status_code == 404, (path, response.status_code)
    headers = {"X-CSRFToken": client.get("/api/me").get_json()["csrf_token"]}
    response = client.post("/api/auth/login", json={"name": "Bru\x00no", "password": "Lune pleine 42"},
                           headers=headers)
    assert response.status_code == 401 and error_code(response) == "bad_credentials"


def test_ten_kilobyte_strings_everywhere(app, make_table, client):
    big = "x" * 10_240
    table, views = _running(make_table, 6)
    player = table.seats[1]
    before = snapshot(app)
    cases = [
        ("POST", "/api/auth/login", {"name": big, "password": big}, (401,)),
        ("POST", "/api/tables", {"name": big}, (400,)),
        ("PATCH", f"/api/tables/{table.id}/settings", {big: big}, (400, 409)),
        ("POST", f"/api/tables/{table.id}/act", {"action": big}, (400,)),
        ("POST", f"/api/tables/{table.id}/act", {"action": "vote.cast", "target": big}, (400,)),
        ("POST", f"/api/tables/{table.id}/chat", {"channel": big, "text": "x"}, (400,)),
        ("POST", f"/api/tables/{table.id}/chat", {"channel": "village", "text": big}, (400,)),
        ("POST", f"/api/tables/{big[:2000]}/join", None, (404,)),
    ]
    for method, path, body, statuses in cases:
        response = player.request(method, path, body)
        assert response.status_code in statuses, (path, response.status_code)
        assert len(response.get_data()) < 2000  # the refusal does not echo the input back
        error_code(response)
    response = client.post("/api/auth/register", json={"name": big, "password": big},
                           headers={"X-CSRFToken": client.get("/api/me").get_json()["csrf_token"]})
    assert response.status_code == 400
    after = snapshot(app)
    assert after == before


WRONG_VALUES = [None, True, 1.5, -1, 0, 10**30, "1", [], [1, 2], {}, {"seat": 1}]


def test_wrong_types_in_actions_and_chat(app, make_table):
    app.config["CHAT_RATE_LIMIT"] = "1000 per minute"  # refused messages count as tries too
    table, views = _running(make_table, 6)
    player = table.seats[next(s for s, v in views.items() if not v["prompt"])]
    before = snapshot(app)
    for value in WRONG_VALUES:
        for body in ({"action": value}, {"action": "vote.cast", "target": value},
                     {"action": "cupid.pair", "targets": value}, {"action": "seer.look", "step": value},
                     {"channel": value, "text": "x"}, {"channel": "village", "text": value}):
            path = "/chat" if "channel" in body else "/act"
            response = player.post(f"/api/tables/{table.id}{path}", body)
            assert 400 <= response.status_code < 500, (body, response.status_code)
            error_code(response)
    for data, content_type in (("vote.cast", "text/plain"), ("<xml/>", "application/xml"),
                               ("action=vote.cast", "application/x-www-form-urlencoded"),
                               ("{\"action\": ", "application/json"), ("null", "application/json"),
                               ("\x00\x01", "application/octet-stream")):
        for path in ("/act", "/chat"):
            response = player.client.post(f"/api/tables/{table.id}{path}", data=data,
                                          content_type=content_type,
                                          headers={"X-CSRFToken": player.token})
            assert response.status_code == 400, (path, data)
            error_code(response)
    assert snapshot(app) == before


# ---------------------------------------------------------------- rate limits

def test_login_brute_force_is_limited_per_account(make_app, make_player, clock):
    from .conftest import Player
    app = make_app(LOGIN_RATE_LIMIT="5 per minute")
    victim = Player(app, "Victime").register()
    other = Player(app, "Autre").register()
    attacker = Player(app, "Pirate")
    statuses = []
    for i in range(8):  # waiting out each growing delay (test_login_throttle): the limit per name holds
        statuses.append(attacker.post("/api/auth/login", {"name": "victime", "password": f"guess{i}"}).status_code)
        clock.advance(300)
    # The first failure makes the client a failing one: the limit counts it from then on.
    assert statuses == [401] * 6 + [429] * 2
    limited = attacker.post("/api/auth/login", {"name": "VICTIME ", "password": victim.password})
    assert limited.status_code == 429 and error_code(limited) == "too_many_requests"
    # Another account is not affected, and a right password never counts as a try.
    for _ in range(8):
        assert attacker.post("/api/auth/login", {"name": "Autre", "password": other.password}).status_code == 200


def test_chat_flooding_is_limited_per_account_and_the_poll_never(make_table, app):
    app.config["CHAT_RATE_LIMIT"] = "5 per minute"
    table, views = _running(make_table, 6)
    wolf = next(s for s, v in views.items() if v["me"]["role"] == "werewolf")
    statuses = [table.seats[wolf].chat(table.id, "werewolves", f"m{i}").status_code for i in range(7)]
    assert statuses == [201] * 5 + [429] * 2
    lines = table.seats[wolf].state(table.id)["chat"]["werewolves"]
    assert [m["text"] for m in lines] == [f"m{i}" for i in range(5)]
    # Someone else may still write; the state poll is never limited.
    for _ in range(300):
        assert table.seats[wolf].state_response(table.id).status_code == 200
    assert table.host.client.get("/api/me").status_code == 200


# ---------------------------------------------------------------- headers and cookies

def test_security_headers_on_pages_api_and_errors(make_player, client):
    player = make_player("Alice")
    for response in (client.get("/login"), player.client.get("/"), player.client.get("/api/me"),
                     player.client.get("/api/nothing"), client.get("/static/js/common.js")):
        csp = response.headers["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
        assert directives["script-src"] == "'self'" and "unsafe-inline" not in csp
        assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "same-origin"


def test_pages_have_no_inline_script_or_handler(make_table):
    table = make_table(6).start()
    player = table.players[0]
    code = player.state(table.id)["table"]["code"]
    for path in ("/", f"/t/{code}", "/login?lang=en"):
        html = player.client.get(path).get_data(as_text=True)
        for tag in re.findall(r"<script\b[^>]*>(.*?)</script>", html, re.S):
            assert tag.strip() == "", path
        assert all(re.search(r"\bsrc=", t) for t in re.findall(r"<script\b[^>]*>", html)), path
        assert not re.search(r"<[^>]+\son[a-z]+\s*=", html), path
        assert not re.search(r"<[^>]+\sstyle\s*=", html), path
        assert "javascript:" not in html


def _cookies(response):
    return {c.split("=", 1)[0]: [p.strip().lower() for p in c.split(";")[1:]]
            for c in response.headers.getlist("Set-Cookie")}


def test_cookie_flags_over_http_and_https(client, app):
    token = client.get("/api/me").get_json()["csrf_token"]
    response = client.post("/api/auth/register", json={"name": "Alice", "password": "Lune pleine 42"},
                           headers={"X-CSRFToken": token})
    cookies = _cookies(response)
    assert {"session", "remember_token"} <= set(cookies)
    for name in ("session", "remember_token"):
        assert "httponly" in cookies[name] and "samesite=lax" in cookies[name]
        assert "secure" not in cookies[name]  # plain http://localhost still works

    secure = app.test_client()
    token = secure.get("/api/me", base_url="https://werewolf.test").get_json()["csrf_token"]
    response = secure.post("/api/auth/register", json={"name": "Bruno", "password": "Lune pleine 42"},
                           headers={"X-CSRFToken": token, "Referer": "https://werewolf.test/register"},
                           base_url="https://werewolf.test")
    assert response.status_code == 201, response.get_json()
    cookies = _cookies(response)
    for name in ("session", "remember_token"):
        assert {"httponly", "samesite=lax", "secure"} <= set(cookies[name]), cookies[name]
    lang = secure.get("/login?lang=en", base_url="https://werewolf.test")
    assert "secure" in _cookies(lang)["lang"]


def test_https_behind_a_proxy_sets_secure_cookies(make_app):
    app = make_app(PROXY_COUNT=1)
    client = app.test_client()
    headers = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
    token = client.get("/api/me", headers=headers).get_json()["csrf_token"]
    response = client.post("/api/auth/register", json={"name": "Chloé", "password": "Lune pleine 42"},
                           headers={**headers, "X-CSRFToken": token,
                                    "Referer": "https://werewolf.test/register"})
    assert response.status_code == 201, response.get_json()
    assert all("secure" in flags for flags in _cookies(response).values())
