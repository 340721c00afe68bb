"""Schema migrations (migrations/, Flask-Migrate) and backups, on SQLite and on the database
of WEREWOLF_TEST_DATABASE_URI: the revisions reach exactly the models; a database made
before migrations is upgraded by `flask --app app upgrade-db` and then played; an app
refuses a database that needs upgrading; `flask backup` copies a live SQLite file."""
import random
import sqlite3
import threading

import flask_migrate
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from werkzeug.security import generate_password_hash

from tests.conftest import TEST_DATABASE_URI, drop_everything, requires_sqlite
from tests.kit.clock import START
from werewolf import schema
from werewolf.extensions import db

from .conftest import Player, Table


@pytest.fixture
def bare_app(make_app, monkeypatch, schema_changing):
    """An app that leaves the schema alone (as under `flask --app app ...`), over an empty database."""
    monkeypatch.setenv("FLASK_RUN_FROM_CLI", "true")
    app = make_app()
    with app.app_context():
        drop_everything(db.engine.url.render_as_string(hide_password=False))
    monkeypatch.delenv("FLASK_RUN_FROM_CLI")
    return app


def differences(app) -> list:
    with app.app_context(), db.engine.connect() as connection:
        return compare_metadata(MigrationContext.configure(connection), db.metadata)


def test_the_migrations_build_exactly_the_tables_of_the_models(bare_app):
    with bare_app.app_context():
        flask_migrate.upgrade(directory=str(schema.MIGRATIONS))
    assert differences(bare_app) == []
    # The revision a server expects (checked without importing Alembic) is the latest one.
    assert schema.HEAD == ScriptDirectory(str(schema.MIGRATIONS)).get_current_head()


def make_old_database(app, names: list[str]) -> str:
    """The tables of the first revision without a revision (as create_all made them before
    migrations existed), with accounts and a waiting table of ``names``; returns its id."""
    with app.app_context():
        flask_migrate.upgrade(directory=str(schema.MIGRATIONS), revision=schema.BASELINE)
        with db.engine.begin() as connection:
            connection.execute(text("DROP TABLE alembic_version"))
            _old_accounts_and_table(connection, names)
            for i in range(1, len(names) + 1):
                connection.execute(text("INSERT INTO seats (table_id, user_id, number, joined_at, last_seen)"
                                        " VALUES ('0123456789abcdef', :i, :i, :at, 0)"), {"i": i, "at": START + i})
    return "0123456789abcdef"


def test_an_old_database_is_upgraded_then_played(bare_app, make_app, monkeypatch, clock):
    names = ["Anne", "Basile", "Colette", "Denis", "Eloi", "Fanny", "Gilles"]
    table_id = make_old_database(bare_app, names)
    with pytest.raises(schema.SchemaOutOfDate, match="upgrade-db"):
        make_app()  # the server refuses it rather than failing on every request
    monkeypatch.setenv("FLASK_RUN_FROM_CLI", "true")
    result = make_app().test_cli_runner().invoke(args=["upgrade-db"])
    assert result.exit_code == 0 and f"from revision none to {schema.HEAD}" in result.output, result.output
    again = make_app().test_cli_runner().invoke(args=["upgrade-db"])
    assert f"already at revision {schema.HEAD}" in again.output, again.output
    monkeypatch.delenv("FLASK_RUN_FROM_CLI")
    assert differences(bare_app) == []

    app = make_app()  # the server starts on the upgraded database
    players = []
    for name in names:
        player = Player(app, name)
        response = player.post("/api/auth/login", {"name": name, "password": "motdepasse"})
        assert response.status_code == 200, response.get_json()
        player.token = player.client.get("/api/me").get_json()["csrf_token"]
        players.append(player)
    table = Table(app, clock, players, table_id).start()
    views = table.play_to_end(random.Random(7))
    assert next(iter(views.values()))["status"] == "ended"


def test_a_new_database_is_created_at_the_latest_revision(bare_app, monkeypatch):
    monkeypatch.setenv("FLASK_RUN_FROM_CLI", "true")
    result = bare_app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0 and f"revision {schema.HEAD}" in result.output, result.output
    assert differences(bare_app) == []
    with bare_app.app_context(), db.engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() == schema.HEAD


@requires_sqlite
def test_backup_copies_a_live_database_while_it_is_written(app, make_table, tmp_path):
    make_table(6).start()
    with app.app_context():
        source = db.engine.url.database
    stop = threading.Event()
    written, begun = [], []   # committed for sure / committed or about to be

    def writer():  # another process's writes, as fast as they come, during the copy
        connection = sqlite3.connect(source, timeout=30, isolation_level=None)
        n = 0
        while not stop.is_set():
            n += 1
            begun.append(n)
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("INSERT INTO users (name, name_key, password_hash, created_at)"
                               " VALUES (?, ?, 'x', 0)", (f"w{n}", f"w{n}"))
            connection.execute("COMMIT")
            written.append(n)
        connection.close()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        while len(written) < 50:
            pass
        copies = []
        for i in range(3):
            path = tmp_path / f"copy{i}.db"
            before = len(written)
            result = app.test_cli_runner().invoke(args=["backup", str(path)])
            assert result.exit_code == 0, result.output
            copies.append((path, before, len(begun)))  # a row may commit before it is counted written
    finally:
        stop.set()
        thread.join()
    for path, before, after in copies:
        copy = sqlite3.connect(path)
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert copy.execute("PRAGMA foreign_key_check").fetchall() == []
        count = copy.execute("SELECT count(*) FROM users WHERE name LIKE 'w%'").fetchone()[0]
        assert before <= count <= after  # a consistent moment during the copy
        state = copy.execute("SELECT state FROM games").fetchone()[0]
        copy.close()
        assert '"status": "running"' in state or '"status":"running"' in state
    assert not list(tmp_path.glob("*.partial"))


@pytest.mark.skipif(not TEST_DATABASE_URI, reason="about a server database")
def test_backup_of_a_server_database_points_to_its_own_tool(app, tmp_path):
    result = app.test_cli_runner().invoke(args=["backup", str(tmp_path / "werewolf.dump")])
    assert result.exit_code == 1 and "pg_dump" in result.output, result.output


def test_games_played_before_the_upgrade_are_kept_as_past_games(bare_app, make_app, monkeypatch):
    """Revision 0004 (issue 37): a table's last game, finished before the upgrade, becomes a past
    game of the players seated there (its end, no replay: it has no record); an older game of the
    table, whose players the seats no longer tell, stays unlisted."""
    import json
    import pathlib

    from tests.engine.test_replay import replay
    from werewolf import store
    recorded = json.loads((pathlib.Path(__file__).parents[1] / "engine" / "fixtures"
                           / "replay_6_all_roles.json").read_text())
    ended = replay(recorded)
    names = recorded["players"] + ["Étrangère"]
    with bare_app.app_context():
        flask_migrate.upgrade(directory=str(schema.MIGRATIONS), revision="0002")
        with db.engine.begin() as connection:
            _old_accounts_and_table(connection, names)
            for game_id in (1, 2):
                connection.execute(text(
                    "INSERT INTO games (id, table_id, status, deadline, rev, state, created_at)"
                    " VALUES (:id, '0123456789abcdef', 'ended', NULL, 9, :state, :at)"),
                    {"id": game_id, "state": store.encode(ended), "at": START + game_id})
            connection.execute(text("UPDATE tables SET current_game_id = 2"))
            for i in range(1, len(recorded["players"]) + 1):
                connection.execute(text("INSERT INTO seats (table_id, user_id, number, joined_at, last_seen)"
                                        " VALUES ('0123456789abcdef', :i, :i, :at, 0)"), {"i": i, "at": START + i})
    monkeypatch.setenv("FLASK_RUN_FROM_CLI", "true")
    result = make_app().test_cli_runner().invoke(args=["upgrade-db"])
    assert result.exit_code == 0 and f"from revision 0002 to {schema.HEAD}" in result.output, result.output
    monkeypatch.delenv("FLASK_RUN_FROM_CLI")
    assert differences(bare_app) == []

    app = make_app()
    clients = {}
    for name in names:
        player = Player(app, name)
        assert player.post("/api/auth/login", {"name": name, "password": "motdepasse"}).status_code == 200
        clients[name] = player.client
    for seat, name in enumerate(recorded["players"], start=1):
        games = clients[name].get("/api/me/games").get_json()["games"]
        assert [(g["id"], g["seat"], g["table"], g["role"]) for g in games] == \
            [(2, seat, "Ancienne", ended.player(seat).role)]
        end = clients[name].get("/api/games/2").get_json()
        assert [p["role"] for p in end["players"]] == [p.role for p in ended.players]
        assert end["winner"] == ended.winner and end["replay"] is False and end["host"] == (seat == 1)
        replayed = clients[name].get("/api/games/2/replay")
        assert replayed.status_code == 409 and replayed.get_json()["error"]["code"] == "replay_unavailable"
        assert clients[name].get("/api/games/1").status_code == 404  # whose seats nobody can tell now
    assert clients["Étrangère"].get("/api/games/2").status_code == 404
    assert clients["Étrangère"].get("/api/me/games").get_json() == {"games": []}


def _old_accounts_and_table(connection, names) -> None:
    """Accounts of ``names`` (ids from 1) and a table hosted by the first, written as rows."""
    password = generate_password_hash("motdepasse", "pbkdf2:sha256:1000")
    for i, name in enumerate(names, start=1):
        connection.execute(text("INSERT INTO users (id, name, name_key, password_hash, created_at)"
                                " VALUES (:id, :name, :key, :hash, :at)"),
                           {"id": i, "name": name, "key": name.casefold(), "hash": password, "at": START})
    connection.execute(text(
        "INSERT INTO tables (id, code, name, host_user_id, settings, lobby_rev, created_at)"
        " VALUES ('0123456789abcdef', 'ANCIE', 'Ancienne', 1, '{}', 3, :at)"), {"at": START})
