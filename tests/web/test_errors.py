"""Bad input never gives a 500 and always the JSON error shape under /api/."""
import pytest

from .test_auth import error_code


@pytest.fixture
def alice(make_player):
    return make_player("Alice")


def test_unknown_route_and_method_are_json(alice):
    response = alice.client.get("/api/nothing-here")
    assert response.status_code == 404 and error_code(response) == "not_found"
    response = alice.client.put("/api/me", headers={"X-CSRFToken": alice.token})
    assert response.status_code == 405 and error_code(response) == "method_not_allowed"


@pytest.mark.parametrize("data,content_type", [
    ("not json", "application/json"),
    ("[1, 2]", "application/json"),
    ('"text"', "application/json"),
    ("name=x", "application/x-www-form-urlencoded"),
    ("\xff\xfe", "application/json"),
])
def test_bodies_that_are_not_json_objects(alice, data, content_type):
    for path in ("/api/tables", "/api/auth/login"):
        response = alice.client.post(path, data=data, content_type=content_type,
                                     headers={"X-CSRFToken": alice.token})
        assert response.status_code == 400 and error_code(response) == "bad_request", path


def test_huge_bodies_are_refused(alice):
    response = alice.post("/api/tables", {"name": "x" * 200_000})
    assert response.status_code == 413 and error_code(response) == "request_entity_too_large"


def test_wrong_types_in_table_routes(alice):
    table_id = alice.create_table()
    for body in ({"name": 12}, {"name": ["a"]}, {"name": "x" * 41}):
        response = alice.post("/api/tables", body)
        assert response.status_code == 400, body
    for body in ([], {"roles": "all"}, {"roles": {"dragon": True}}, {"captain": "yes"},
                 {"limits": {"vote": -1}}, {"limits": {"vote": 1.5}}, {"limits": {"nope": 3}},
                 {"limits": {"vote": True}}):
        response = alice.request("PATCH", f"/api/tables/{table_id}/settings", body)
        assert response.status_code == 400, body
        assert error_code(response) in ("invalid_settings", "bad_request")


def test_unknown_table(alice):
    for method, path in (("POST", "/join"), ("POST", "/leave"), ("POST", "/start"),
                         ("PATCH", "/settings"), ("GET", "/state"), ("POST", "/act"), ("POST", "/chat")):
        response = alice.request(method, "/api/tables/doesnotexist" + path, {"action": "vote.cast"}
                                 if path == "/act" else {"channel": "village", "text": "hi"})
        assert response.status_code == 404 and error_code(response) == "table_not_found", path
