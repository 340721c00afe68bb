"""App and client fixtures on a temporary SQLite file, with a clock tests can move.

Set WEREWOLF_TEST_DATABASE_URI (e.g. postgresql+psycopg://user:pw@localhost/db) to run
the same tests on another database (``./scripts/test-postgres`` starts a throw-away
PostgreSQL and does it); each test then starts from emptied tables.
"""
import logging
import os

import pytest
import sqlalchemy

from tests.kit.clock import Clock
from werewolf import store
from werewolf.extensions import db
from werewolf.web import create_app


def _per_worker(uri: str | None) -> str | None:
    """Under pytest-xdist (``-n 2``) each worker gets a database of its own, named after the
    given one plus the worker (``werewolf_test_gw0``...) and created on first use: every
    test empties its database, so two workers cannot share one."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not uri or not worker:
        return uri
    url = sqlalchemy.engine.make_url(uri)
    if url.get_backend_name() != "postgresql":
        return uri
    name = f"{url.database}_{worker}"
    admin = sqlalchemy.create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT",
                                     poolclass=sqlalchemy.pool.NullPool)
    with admin.connect() as connection:
        if connection.scalar(sqlalchemy.text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}) is None:
            connection.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return url.set(database=name).render_as_string(hide_password=False)


TEST_DATABASE_URI = _per_worker(os.environ.get("WEREWOLF_TEST_DATABASE_URI"))

requires_sqlite = pytest.mark.skipif(
    bool(TEST_DATABASE_URI), reason="about SQLite itself (this run is on WEREWOLF_TEST_DATABASE_URI)")

# Tests register many accounts from one address, and play a seat's moves far faster than a
# player; the limits themselves are tested with their defaults or values of their own.
MANY_REGISTRATIONS = MANY_ACTS = "100000 per minute"


class _LoggedErrors(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture(autouse=True)
def no_server_error_logged(request):
    """No 500 and no traceback in the server's log (issue 33): a test fails if the app
    logged an error while it ran (every 500 is logged by web/errors.py, every swallowed
    exception by its ``log.exception``), unless marked ``server_errors_logged``. The
    browser and process tests scan their gunicorn's log the same way."""
    handler = _LoggedErrors()
    logger = logging.getLogger("werewolf")
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)
    if handler.records and request.node.get_closest_marker("server_errors_logged") is None:
        formatter = logging.Formatter("%(name)s: %(message)s")
        pytest.fail("the server logged errors:\n" + "\n".join(formatter.format(r) for r in handler.records[:5]),
                    pytrace=False)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def make_app(tmp_path, monkeypatch, clock):
    """Build an app over this test's database; call it again to "restart" the server."""
    monkeypatch.setenv("WEREWOLF_INSTANCE_PATH", str(tmp_path / "instance"))
    uri = empty_test_database(tmp_path)
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
            "ACT_RATE_LIMIT": MANY_ACTS,
            **config,
        })
        apps.append(app)
        return app

    yield make
    for app in apps:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def empty_test_database(tmp_path) -> str:
    """The URI of an empty database for one test: a new SQLite file in ``tmp_path``, or
    WEREWOLF_TEST_DATABASE_URI emptied (its tables dropped at the first test of a run
    or after a test that changed the schema; the next app creates them)."""
    if not TEST_DATABASE_URI:
        return f"sqlite:///{tmp_path / 'werewolf.db'}"
    if _schema_is_fresh.get(TEST_DATABASE_URI):
        empty_tables(TEST_DATABASE_URI)
    else:
        drop_everything(TEST_DATABASE_URI)
        _schema_is_fresh[TEST_DATABASE_URI] = True
    return TEST_DATABASE_URI


@pytest.fixture
def schema_changing():
    """For a test that builds its own schema: the next test gets the tables this code creates."""
    yield
    if TEST_DATABASE_URI:
        _schema_is_fresh.pop(TEST_DATABASE_URI, None)


_schema_is_fresh: dict[str, bool] = {}
_engines: dict[str, sqlalchemy.Engine] = {}


def _engine(uri: str) -> sqlalchemy.Engine:
    if uri not in _engines:
        _engines[uri] = sqlalchemy.create_engine(uri, poolclass=sqlalchemy.pool.NullPool)
    return _engines[uri]


def drop_everything(uri: str) -> None:
    """Drop every table of a shared test database, whatever created it (the next app
    to start creates the tables again). Tests that change the schema call it after."""
    _schema_is_fresh.pop(uri, None)
    with _engine(uri).begin() as connection:
        found = sqlalchemy.MetaData()
        found.reflect(connection)
        found.drop_all(connection)


def empty_tables(uri: str) -> None:
    """Delete every row (a few ms; dropping and creating the tables took ~40 ms a test)."""
    with _engine(uri).begin() as connection:
        tables = db.metadata.sorted_tables
        for table in tables:  # first the links that make a cycle (tables <-> games)
            for key in table.foreign_key_constraints:
                if key.use_alter:
                    connection.execute(table.update().values({c.name: None for c in key.columns}))
        for table in reversed(tables):
            connection.execute(table.delete())


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()
