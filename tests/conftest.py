"""App and client fixtures on a temporary SQLite file, with a clock tests can move.

Set WEREWOLF_TEST_DATABASE_URI (e.g. postgresql+psycopg://user:pw@localhost/db) to run
the same tests on another database; each test then starts from emptied tables.
"""
import os

import pytest

from tests.kit.clock import Clock
from werewolf import store
from werewolf.extensions import db
from werewolf.web import create_app

# Tests register many accounts from one address; the limit itself is tested with its default.
MANY_REGISTRATIONS = "100000 per minute"


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def make_app(tmp_path, monkeypatch, clock):
    """Build an app over this test's database; call it again to "restart" the server."""
    monkeypatch.setenv("WEREWOLF_INSTANCE_PATH", str(tmp_path / "instance"))
    uri = os.environ.get("WEREWOLF_TEST_DATABASE_URI") or f"sqlite:///{tmp_path / 'werewolf.db'}"
    apps = []

    def make(**config):
        store.game_cache.clear()  # a restarted process starts with an empty cache
        app = create_app({
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "SQLALCHEMY_DATABASE_URI": uri,
            "CLOCK": clock,
            "SCHEDULER": False,
            "SERVER_NAME": "werewolf.test",
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",  # fast; production keeps scrypt
            "REGISTRATION_RATE_LIMIT": MANY_REGISTRATIONS,
            **config,
        })
        if not apps and not uri.startswith("sqlite"):
            with app.app_context():  # a shared server database: start this test empty
                db.drop_all()
                db.create_all()
        apps.append(app)
        return app

    yield make
    for app in apps:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()
