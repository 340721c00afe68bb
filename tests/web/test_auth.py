"""Accounts: register, log in, log out, who am I, and the CSRF rule on every write."""


def error_code(response):
    body = response.get_json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    return body["error"]["code"]


def csrf(client):
    return {"X-CSRFToken": client.get("/api/me").get_json()["csrf_token"]}


def test_me_anonymous_gives_a_token(client):
    body = client.get("/api/me").get_json()
    assert body["user"] is None and body["csrf_token"]


def test_register_logs_in_and_remembers(client):
    response = client.post("/api/auth/register", json={"name": "  Alice  ", "password": "Lune pleine 42"},
                           headers=csrf(client))
    assert response.status_code == 201
    assert response.get_json()["user"]["name"] == "Alice"
    assert "remember_token" in response.headers.get("Set-Cookie", "") or any(
        "remember_token" in c for c in response.headers.getlist("Set-Cookie"))
    assert client.get("/api/me").get_json()["user"]["name"] == "Alice"


def test_register_refuses_taken_names_whatever_the_case(client, make_player):
    make_player("Alice")
    response = client.post("/api/auth/register", json={"name": "ALICE", "password": "Lune pleine 42"},
                           headers=csrf(client))
    assert response.status_code == 409 and error_code(response) == "name_taken"


def test_register_validates_name_and_password(client):
    headers = csrf(client)
    for body, code in [({"name": "", "password": "Lune pleine 42"}, "invalid_name"),
                       ({"name": "x" * 25, "password": "Lune pleine 42"}, "invalid_name"),
                       ({"name": 42, "password": "Lune pleine 42"}, "invalid_name"),
                       ({"name": "a\u0000b", "password": "Lune pleine 42"}, "invalid_name"),
                       ({"name": "Bob", "password": "abc"}, "invalid_password"),
                       ({"name": "Bob", "password": ["x"]}, "invalid_password")]:
        response = client.post("/api/auth/register", json=body, headers=headers)
        assert response.status_code == 400 and error_code(response) == code, body
    assert client.get("/api/me").get_json()["user"] is None


def test_login_and_logout(app, make_player):
    make_player("Bruno")
    client = app.test_client()
    headers = csrf(client)
    wrong = client.post("/api/auth/login", json={"name": "bruno", "password": "nope"}, headers=headers)
    assert wrong.status_code == 401 and error_code(wrong) == "bad_credentials"
    ok = client.post("/api/auth/login", json={"name": "bruno", "password": "Lune pleine 42"}, headers=headers)
    assert ok.status_code == 200 and ok.get_json()["user"]["name"] == "Bruno"
    headers = {"X-CSRFToken": ok.get_json()["csrf_token"]}
    assert client.post("/api/auth/logout", headers=headers).status_code == 200
    assert client.get("/api/me").get_json()["user"] is None


def test_writes_without_csrf_token_are_refused_and_change_nothing(client):
    for headers in ({}, {"X-CSRFToken": "forged"}):
        response = client.post("/api/auth/register", json={"name": "Alice", "password": "Lune pleine 42"},
                               headers=headers)
        assert response.status_code in (400, 403) and error_code(response) == "csrf_failed"
    assert client.get("/api/me").get_json()["user"] is None
    ok = client.post("/api/auth/register", json={"name": "Alice", "password": "Lune pleine 42"}, headers=csrf(client))
    assert ok.status_code == 201


def test_csrf_token_does_not_expire_within_a_long_game(client, app, clock):
    headers = csrf(client)
    clock.advance(6 * 3600)  # Flask-WTF's default would expire after one hour (real time; config checked)
    assert app.config["WTF_CSRF_TIME_LIMIT"] is None
    assert client.post("/api/auth/register", json={"name": "Alice", "password": "Lune pleine 42"},
                       headers=headers).status_code == 201


def test_api_needs_login(client):
    response = client.get("/api/tables")
    assert response.status_code == 401 and error_code(response) == "login_required"
