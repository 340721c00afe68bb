"""Hostile input: forged requests, other people's seats and tables, nasty text, floods,
and the security headers and cookie flags every answer carries."""
import re
import time

import pytest

from .conftest import in_one_rate_window
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
    "\u0644\u0627 emoji 🐺 👨\u200d👩\u200d👧 🏳\ufe0f\u200d🌈",  # joiners within emoji sequences stay
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
    # A table's code given at registration (arrived by its link) is looked up too.
    response = client.post("/api/auth/register", json={"name": "Nul", "password": "Lune pleine 42",
                                                       "table_code": "AB\x00CD"}, headers=headers)
    assert response.status_code == 201 and response.get_json()["table"] is None


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
    in_one_rate_window()
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
    in_one_rate_window()
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


# ---------------------------------------------------------------- issue 33: hostile players

def _wolf_and_other(views):
    wolf = next(s for s, v in views.items() if v["me"]["role"] == "werewolf")
    return wolf, next(s for s in views if s != wolf)


LONE_SURROGATES = ["\ud800", "a\udfffb", "\udc00\ud800", "😀\ud83d"]


def _text_fields(table_id: str) -> list[tuple[str, str, dict]]:
    """(method, path, body) of every route with a text field, the field set to {text}."""
    return [
        ("POST", "/api/auth/register", {"name": "{text}", "password": "Lune pleine 42"}),
        ("POST", "/api/auth/register", {"name": "Zoé", "password": "mot{text}passe"}),
        ("POST", "/api/auth/register", {"name": "Zoé", "password": "Lune pleine 42", "table_code": "{text}"}),
        ("POST", "/api/auth/login", {"name": "{text}", "password": "Lune pleine 42"}),
        ("POST", "/api/auth/login", {"name": "Alice", "password": "{text}"}),
        ("POST", "/api/auth/password", {"old_password": "{text}", "new_password": "autre mot"}),
        ("POST", "/api/auth/password", {"old_password": "Lune pleine 42", "new_password": "{text}xyz1"}),
        ("DELETE", "/api/me", {"password": "{text}"}),
        ("POST", "/api/tables", {"name": "{text}"}),
        ("PATCH", f"/api/tables/{table_id}/settings", {"{text}": True}),
        ("PATCH", f"/api/tables/{table_id}/settings", {"rhythm": "{text}"}),
        ("POST", f"/api/tables/{table_id}/act", {"action": "{text}"}),
        ("POST", f"/api/tables/{table_id}/act", {"action": "vote.cast", "target": 1, "{text}": 1}),
        ("POST", f"/api/tables/{table_id}/chat", {"channel": "village", "text": "{text}"}),
        ("POST", f"/api/tables/{table_id}/chat", {"channel": "{text}", "text": "salut"}),
        ("POST", f"/api/tables/{table_id}/visibility", {"public": "{text}"}),
    ]


def _fill(value, text: str):
    if isinstance(value, dict):
        return {_fill(k, text): _fill(v, text) for k, v in value.items()}
    return value.replace("{text}", text) if isinstance(value, str) else value


def _raw_json(value) -> str:
    """JSON with every non-ASCII character escaped: a lone surrogate travels as ``\\ud800``."""
    import json
    return json.dumps(value, ensure_ascii=True)


@pytest.mark.parametrize("surrogate", LONE_SURROGATES)
def test_text_that_is_not_unicode_is_refused_in_every_field_and_the_game_goes_on(app, make_table, surrogate):
    table, views = _running(make_table, 6)
    wolf, _ = _wolf_and_other(views)
    player = table.seats[wolf]
    before = snapshot(app)
    for method, path, body in _text_fields(table.id):
        response = player.client.open(path, method=method, data=_raw_json(_fill(body, surrogate)),
                                      content_type="application/json", headers={"X-CSRFToken": player.token})
        assert response.status_code == 400, (path, body, response.status_code)
        assert error_code(response) == "text_invalid", (path, body)
    assert snapshot(app) == before
    # The game was never stuck: the pack still talks, the village still plays.
    assert player.chat(table.id, "werewolves", "toujours là").status_code == 201


def test_a_move_that_fails_fails_alone_and_leaves_nothing_queued(app, make_table):
    """The move queue (play._play_waiting_moves): a move whose game cannot be saved gets
    its own error; the moves played with it are saved, and later moves are not held up."""
    from werewolf import engine, store
    from werewolf.service import play
    table, views = _running(make_table, 6)
    wolf, _ = _wolf_and_other(views)
    with app.app_context():
        game_id = store.seat_and_game(table.id, table.seats[wolf].state(table.id)["me"]["seat"])[0]

        def poisoned(game, seat):  # what a lone surrogate once did: a state no encoder writes
            game.chat.append({"channel": "werewolves", "seat": seat, "name": "x", "text": "\ud800", "at": "now"})

        def said(words):
            return lambda game, seat: engine.post_chat(game, seat, "werewolves", words, table.clock())

        note = {"chat": "werewolves"}  # what the game's record keeps of a message
        moves = [play._Move(said("avant"), note, wolf, table.clock()),
                 play._Move(poisoned, note, wolf, table.clock()),
                 play._Move(said("après"), note, wolf, table.clock())]
        for move in moves:
            play._pending.add(game_id, move)
        play._play_waiting_moves(game_id)
        assert all(move.done for move in moves)
        assert moves[0].error is None and moves[2].error is None
        assert isinstance(moves[1].error, UnicodeError)
        assert play._pending.waiting(game_id) == []
        with pytest.raises(UnicodeError):  # alone, it fails again, alone
            play.play_move(table.id, _user_id(table.seats[wolf]), table.clock(), poisoned, {"chat": "werewolves"})
        assert play._pending.waiting(game_id) == []
    assert table.seats[wolf].chat(table.id, "werewolves", "encore").status_code == 201
    texts = [m["text"] for m in table.seats[wolf].state(table.id)["chat"]["werewolves"]]
    assert texts == ["avant", "après", "encore"]


def _user_id(player) -> int:
    return player.client.get("/api/me").get_json()["user"]["id"]


def _to_election(table):
    while table.host.state(table.id)["step"]["id"] != "election":
        table.finish_step()


def test_recasting_a_ballot_never_grows_the_views(make_table):
    table, views = _running(make_table, 6, roles={"cupid": False, "seer": False, "witch": False,
                                                  "hunter": False}, captain=True)
    _to_election(table)
    voter, other = table.seats[1], table.seats[2]
    assert voter.act(table.id, "election.vote", target=3).status_code == 200
    etag = other.state_response(table.id).headers["ETag"]
    size = len(other.state_response(table.id).get_data())
    for _ in range(10):  # the same ballot again: no event, no new ETag for anyone
        assert voter.act(table.id, "election.vote", target=3).status_code == 200
        assert other.state_response(table.id, etag).status_code == 304
    for i in range(40):  # a changed ballot replaces the voter's last one
        assert voter.act(table.id, "election.vote", target=4 + i % 2).status_code == 200
    view = other.state(table.id)
    casts = [(e["seat"], e["target"]) for e in view["events"] if e["kind"] == "vote_cast"]
    assert casts == [(1, 5)] and view["votes"] == {"1": 5}
    assert len(other.state_response(table.id).get_data()) <= size + 8  # a digit or two in "seq" and "at"


def test_acts_are_rate_limited_per_seat_with_retry_after(make_app, clock):
    from .conftest import Player, Table
    app = make_app(ACT_RATE_LIMIT="6 per minute")
    players = [Player(app, f"Joueur{i}").register() for i in range(6)]
    table_id = players[0].create_table(name="Lente")
    for p in players[1:]:
        p.join(table_id)
    table = Table(app, clock, players, table_id).start(
        roles={"cupid": False, "seer": False, "witch": False, "hunter": False}, captain=True)
    _to_election(table)
    in_one_rate_window()
    statuses = [table.seats[1].act(table.id, "election.vote", target=2 + i % 2) for i in range(8)]
    assert [r.status_code for r in statuses] == [200] * 6 + [429] * 2
    limited = statuses[-1]
    assert error_code(limited) == "too_many_requests"
    assert 0 < int(limited.headers["Retry-After"]) <= 60
    # Another seat acts, everybody polls, chat has its own limit.
    assert table.seats[2].act(table.id, "election.vote", target=3).status_code == 200
    assert table.seats[1].state_response(table.id).status_code == 200
    assert table.seats[1].chat(table.id, "village", "je réfléchis").status_code == 201


def test_the_default_act_limit_takes_a_burst_of_thirty_moves(app, make_table):
    """ACT_RATE_LIMIT's default: thirty moves at once (a vote's worth of hesitation), not more."""
    from werewolf.web.security import DEFAULT_LIMITS
    app.config["ACT_RATE_LIMIT"] = DEFAULT_LIMITS["ACT_RATE_LIMIT"]
    assert DEFAULT_LIMITS["ACT_RATE_LIMIT"].startswith("30 per 10 seconds")
    table, views = _running(make_table, 6, roles={"cupid": False, "seer": False, "witch": False,
                                                  "hunter": False}, captain=True)
    _to_election(table)
    window = in_one_rate_window(10, room=4)
    statuses = [table.seats[1].act(table.id, "election.vote", target=2 + i % 3).status_code for i in range(31)]
    assert int(time.time() // 10) == window, "the burst took more than 4 s: it says nothing of one window"
    assert statuses == [200] * 30 + [429]


def _deep(depth: int, leaf=1):
    """JSON text nested ``depth`` levels, alternating arrays and objects."""
    return "".join('{"a":' if i % 2 else "[" for i in range(depth)) + str(leaf) + \
        "".join("}" if i % 2 else "]" for i in reversed(range(depth)))


@pytest.mark.parametrize("depth", [17, 5000, 100_000 // 6])
def test_deeply_nested_json_is_refused_with_the_error_shape(app, make_table, client, depth):
    table, views = _running(make_table, 6)
    player = table.seats[1]
    deep = _deep(depth)
    before = snapshot(app)
    token = client.get("/api/me").get_json()["csrf_token"]
    cases = [(client, token, "POST", "/api/auth/register", '{"name": "Zoé", "password": "Lune pleine 42", "x": %s}'),
             (client, token, "POST", "/api/auth/login", '{"name": %s, "password": "x"}'),
             (player.client, player.token, "PATCH", f"/api/tables/{table.id}/settings", '{"limits": %s}'),
             (player.client, player.token, "POST", f"/api/tables/{table.id}/act", '{"action": "vote.cast", "target": %s}'),
             (player.client, player.token, "POST", f"/api/tables/{table.id}/chat", '{"channel": %s, "text": "x"}')]
    for http, csrf, method, path, body in cases:
        response = http.open(path, method=method, data=body % deep, content_type="application/json",
                             headers={"X-CSRFToken": csrf})
        assert response.status_code in (400, 413), (path, response.status_code)
        error_code(response)
    assert snapshot(app) == before


def test_a_cookie_byte_that_is_not_utf8_is_no_error(app, make_table, caplog):
    """A 0xff byte in the Cookie header (as gunicorn hands it: latin-1) once logged a
    traceback on every poll; now it reads as any unknown cookie."""
    table, views = _running(make_table, 6)
    player = table.seats[1]
    session = next(c.value for c in player.client._cookies.values() if c.key == "session")
    stranger = app.test_client(use_cookies=False)  # else its empty cookie jar drops the header
    for cookie in (f"session={session}; junk=\xff", "session=\xff\xfe", f"\xff=1; session={session}"):
        response = stranger.get(f"/api/tables/{table.id}/state", environ_overrides={"HTTP_COOKIE": cookie})
        assert response.status_code in (200, 401), cookie
        error_code(response) if response.status_code != 200 else None
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")], caplog.text


def test_an_overlong_url_gets_the_json_error_shape(make_player):
    player = make_player()
    response = player.client.get("/api/tables/" + "a" * 5000 + "/state")
    assert response.status_code == 414 and error_code(response) == "request_uri_too_long"
    response = player.client.get("/api/tables?x=" + "b" * 5000)
    assert response.status_code == 414 and error_code(response) == "request_uri_too_long"
    page = player.client.get("/t/" + "C" * 5000)
    assert page.status_code == 414 and page.mimetype == "text/html"
    assert player.client.get("/api/tables/" + "a" * 3000 + "/state").status_code in (403, 404)


INVISIBLE_NAMES = ["\u3164", "\u2800", "\u115f\u1160", "\uffa0", "\u200b", "\u200d", "\u2060", "\ufeff",
                   " \u200b ", "\u034f", "\u00ad", "\u180e", "\U000e0041"]
SPOOFING_NAMES = ["Alice\u3164", "\u202eecilA", "Al\u200bice", "Ali\u2066ce", "Bob\u200e",
                  "Z" + "\u0336\u0335\u0334\u0337\u0338" * 4, "\u0301Alice"]


@pytest.mark.parametrize("name", INVISIBLE_NAMES + SPOOFING_NAMES)
def test_names_that_do_not_show_as_themselves_are_refused(client, make_player, name):
    headers = {"X-CSRFToken": client.get("/api/me").get_json()["csrf_token"]}
    response = client.post("/api/auth/register", json={"name": name, "password": "Lune pleine 42"}, headers=headers)
    assert response.status_code == 400 and error_code(response) == "invalid_name", name
    host = make_player()
    response = host.post("/api/tables", {"name": name})
    assert response.status_code == 400 and error_code(response) == "invalid_name", name


@pytest.mark.parametrize("name", ["Chloé", "Cho\u0302\u0323", "Nguyễn", "李小龍", "Łukasz", "Zoë-Ève", "ナナ",
                                  "Dvořák 🐺", "محمد", "עברית", "नमस्ते", "ᄀᄁ"])
def test_names_in_any_script_are_taken(client, name):
    import unicodedata
    headers = {"X-CSRFToken": client.get("/api/me").get_json()["csrf_token"]}
    response = client.post("/api/auth/register", json={"name": name, "password": "Lune pleine 42"}, headers=headers)
    assert response.status_code == 201, (name, response.get_json())
    assert response.get_json()["user"]["name"] == unicodedata.normalize("NFC", name)
    # Logged in again however the keyboard composes it.
    other = client.application.test_client()
    headers = {"X-CSRFToken": other.get("/api/me").get_json()["csrf_token"]}
    response = other.post("/api/auth/login", json={"name": unicodedata.normalize("NFD", name).upper(),
                                                   "password": "Lune pleine 42"}, headers=headers)
    assert response.status_code == 200, name


@pytest.mark.parametrize("sent, shown", [
    ("\u202egnp.exe", "gnp.exe"),                            # right-to-left override
    ("salut \u2067piège\u2069 toi", "salut piège toi"),      # isolates
    ("\u200e\u200fà\u061c moi", "à moi"),                    # direction marks
    ("vo\u200bte\u2060 3\ufeff", "vote 3"),                  # zero-width
    ("caché\U000e0041\U000e0042", "caché"),                  # tag characters
    ("Z" + "\u0336" * 40 + "!", "Z" + "\u0336" * 4 + "!"),       # zalgo, cut short
    ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),                # an emoji sequence keeps its joiners
])
def test_chat_cannot_reverse_or_hide_text(make_table, sent, shown):
    table, views = _running(make_table, 6)
    wolf, _ = _wolf_and_other(views)
    assert table.seats[wolf].chat(table.id, "werewolves", sent).status_code == 201
    assert table.seats[wolf].state(table.id)["chat"]["werewolves"][-1]["text"] == shown


@pytest.mark.parametrize("sent", ["\u202e", "\u200b\u200d\u2060", "\u3164\u3164", "\u2800", " \u0336\u0336 "])
def test_a_chat_message_of_nothing_visible_is_empty(make_table, sent):
    table, views = _running(make_table, 6)
    wolf, _ = _wolf_and_other(views)
    response = table.seats[wolf].chat(table.id, "werewolves", sent)
    assert response.status_code == 400 and error_code(response) == "text_empty"


# ---------------------------------------------------------------- fuzzing every text field

def _fuzzed_texts():
    from hypothesis import strategies as st
    # Surrogates, format, control and combining characters among ordinary ones.
    nasty = st.characters(categories=["Cs", "Cf", "Cc", "Mn", "Me", "Zs", "Zl", "Lo", "So", "Co", "Cn"])
    plain = st.characters(codec="utf-8")
    return st.text(st.one_of(nasty, plain), min_size=0, max_size=40)


def test_fuzzed_text_and_nesting_in_every_text_field_is_never_a_server_error(app, make_table):
    """Hypothesis: text with lone surrogates, bidi, zero-width, control and combining
    characters, and nesting from shallow to far too deep, in every text field."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    app.config["LOGIN_RATE_LIMIT"] = app.config["CHAT_RATE_LIMIT"] = "100000 per minute"
    table, views = _running(make_table, 6)
    wolf, _ = _wolf_and_other(views)
    player = table.seats[wolf]
    stranger = app.test_client()
    tokens = {"stranger": stranger.get("/api/me").get_json()["csrf_token"]}
    fields = [f for f in _text_fields(table.id) if f[1] not in ("/api/auth/password", "/api/me")]
    statuses: dict[int, int] = {}

    @given(field=st.sampled_from(fields), text=_fuzzed_texts(), depth=st.one_of(st.just(0), st.integers(1, 3000)))
    @settings(max_examples=300, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def fuzz(field, text, depth):
        method, path, body = field
        data = _raw_json(_fill(body, text))
        if depth:  # the same field holding the text nested `depth` levels deep
            data = data.replace(_raw_json(text), _deep(depth, _raw_json(text)), 1)
        http, token = (stranger, tokens["stranger"]) if path.startswith("/api/auth/") else (player.client, player.token)
        response = http.open(path, method=method, data=data, content_type="application/json",
                             headers={"X-CSRFToken": token})
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
        assert response.status_code < 500, (path, data[:200], response.get_data()[:200])
        if response.status_code >= 400:
            error_code(response)
        if response.status_code in (200, 201) and path.startswith("/api/auth/"):  # a new account: log out again
            stranger.post("/api/auth/logout", headers={"X-CSRFToken": response.get_json()["csrf_token"]})
            tokens["stranger"] = stranger.get("/api/me").get_json()["csrf_token"]

    fuzz()
    print(f"fuzzed text fields: statuses {sorted(statuses.items())}")
    assert {400} <= set(statuses) and not any(s >= 500 for s in statuses), statuses
    assert player.chat(table.id, "werewolves", "toujours là").status_code == 201
