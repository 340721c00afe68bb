"""The OpenAPI document served at /api/openapi.json, and Schemathesis against it:
no 5xx, every status documented, every response matching its schema."""
import random
import re

import pytest
from hypothesis import HealthCheck, settings

schemathesis = pytest.importorskip("schemathesis")
from schemathesis import checks as st_checks  # noqa: E402

from tests.conftest import empty_test_database  # noqa: E402
from werewolf.web import create_app  # noqa: E402

from .conftest import Player  # noqa: E402

FUZZ_EXAMPLES = 60  # generated cases per operation


def test_every_api_route_is_described(app):
    doc = app.test_client().get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    described = {(re.sub(r"\{\w+\}", "<>", path), method.upper())
                 for path, ops in doc["paths"].items() for method in ops}
    routes = {(re.sub(r"<[^>]+>", "<>", rule.rule), method)
              for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/")
              for method in rule.methods - {"HEAD", "OPTIONS"}}
    assert routes == described


def test_the_state_poll_describes_how_it_is_held(app):
    """API.md's held polls: the Prefer header asked, and the headers of the answer."""
    op = app.test_client().get("/api/openapi.json").get_json()["paths"]["/api/tables/{table_id}/state"]["get"]
    assert "Prefer" in [p["name"] for p in op["parameters"] if p["in"] == "header"]
    for status in ("200", "304"):
        assert {"Preference-Applied", "Server-Timing"} <= set(op["responses"][status]["headers"]), status



def test_the_catalog_tells_the_phases(app):
    """The pages take the night's phase from the catalog (issue 34): described and served."""
    client = app.test_client()
    schema = client.get("/api/openapi.json").get_json()["components"]["schemas"]["Catalog"]
    assert "phases" in schema["required"] and schema["properties"]["phases"]["items"]["enum"] == ["night", "day"]
    catalog = client.get("/api/catalog").get_json()
    assert catalog["phases"] == ["night", "day"]
    assert {step["phase"] for step in catalog["steps"]} == set(catalog["phases"])

@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory):
    import os

    from werewolf import store
    tmp = tmp_path_factory.mktemp("openapi")
    os.environ["WEREWOLF_INSTANCE_PATH"] = str(tmp / "instance")
    store.game_cache.clear()
    app = create_app({
        "TESTING": True, "SECRET_KEY": "openapi", "SCHEDULER": False, "SERVER_NAME": "werewolf.test",
        "SQLALCHEMY_DATABASE_URI": empty_test_database(tmp),
        "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000", "REGISTRATION_RATE_LIMIT": "100000 per minute",
        "STREAM_SECONDS": 0.1,  # the fuzzer reads a stream to its end
    })
    players = [Player(app, f"Fuzz{i}").register() for i in range(7)]
    running = players[0].create_table(name="Running")
    for p in players[1:6]:
        assert p.join(running).status_code == 200
    assert players[0].post(f"/api/tables/{running}/start").status_code == 200
    lobby = players[0].create_table(name="Lobby")
    players[6].join(lobby)
    me = players[0]
    cookie = next(c for c in me.client._cookies.values() if c.key == "session")
    yield {"app": app, "tables": [running, lobby], "token": me.token, "session": cookie.value}
    from werewolf.extensions import db
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


LOGS_OUT = ("/api/auth/logout", "/api/auth/logout-everywhere")


def fresh_session(app) -> tuple[str, str]:
    """A new session of a spare account (its cookie and CSRF token), for a case that logs out."""
    spare = Player(app, "Rechange", "Lune pleine 42")
    if spare.post("/api/auth/login", {"name": spare.name, "password": spare.password}).status_code != 200:
        spare.register()
    token = spare.client.get("/api/me").get_json()["csrf_token"]
    return spare.client.get_cookie("session", domain=app.config["SERVER_NAME"]).value, token


CHECKS = [st_checks.not_a_server_error, st_checks.status_code_conformance,
          st_checks.content_type_conformance, st_checks.response_schema_conformance]


def test_api_fuzzed_against_its_own_schema(fuzz_app):
    """Schemathesis generates requests for every operation (positive and negative data);
    as the same logged-in player, mostly on real tables (a running game, a lobby)."""
    from hypothesis import given

    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", fuzz_app["app"])
    statuses: dict[int, int] = {}
    operations = [result.ok() for result in schema.get_all_operations()]
    for operation in operations:
        @given(case=operation.as_strategy())
        @settings(max_examples=FUZZ_EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        def fuzz(case):
            rng = random.Random(repr(case.body) + repr(case.path_parameters) + repr(case.headers))
            if case.path_parameters and "table_id" in case.path_parameters and rng.random() < 0.7:
                case.path_parameters["table_id"] = rng.choice(fuzz_app["tables"])
            headers = dict(case.headers or {})
            if case.method != "GET" and rng.random() < 0.9:
                headers["X-CSRFToken"] = fuzz_app["token"]
            cookies = {"session": fuzz_app["session"]} if rng.random() < 0.9 else {}
            if case.path in LOGS_OUT and cookies:  # a session of its own: the shared one stays live
                cookies["session"], headers["X-CSRFToken"] = fresh_session(fuzz_app["app"])
            response = case.call(headers=headers, cookies=cookies)
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
            case.validate_response(response, checks=CHECKS)

        fuzz()
    total = sum(statuses.values())
    print(f"schemathesis: {total} requests over {len(operations)} operations, statuses {sorted(statuses.items())}")
    assert len(operations) == 34 and total >= len(operations) * 20
    assert not any(status >= 500 for status in statuses)
    assert {200, 201, 400, 401, 403, 404, 409} <= set(statuses)
