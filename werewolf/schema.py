"""The database's tables: created whole on an empty database, otherwise moved on only by
migrations (Alembic through Flask-Migrate, in ``migrations/``), which the operator runs
with ``flask --app app upgrade-db`` when upgrading.

An app refuses to start on a database whose schema is not the one its code expects (a
clear message in the log rather than errors on every request). A database from before
migrations existed (tables, no ``alembic_version``) has the first revision's schema.

Alembic is imported only to create, stamp or upgrade (it would add ~0.35 s to the start
of every gunicorn worker): a server checks the revision with one query.
"""
from pathlib import Path

from sqlalchemy import inspect, text

from . import database
from .extensions import db

MIGRATIONS = Path(__file__).resolve().parents[1] / "migrations"
BASELINE = "0001"  # the first migration: the tables as they were before migrations
HEAD = "0005"  # the latest migration (tests/web/test_migrations.py checks it is)


class SchemaOutOfDate(RuntimeError):
    pass


def _revision(connection) -> str | None:
    """The schema's revision; "" for an empty database, None for tables without a revision."""
    tables = set(inspect(connection).get_table_names())
    if "alembic_version" in tables:
        return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    return None if set(db.metadata.tables) & tables else ""


def _stamp(connection, revision: str) -> None:
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory
    MigrationContext.configure(connection).stamp(ScriptDirectory(str(MIGRATIONS)), revision)


def _create(connection) -> None:
    db.metadata.create_all(connection)
    _stamp(connection, HEAD)


def prepare() -> str:
    """At start: an empty database gets every table, at the latest revision. Returns the
    revision; raises SchemaOutOfDate if the database needs ``upgrade-db`` (or newer code)."""
    with database.schema_transaction() as connection:
        revision = _revision(connection)
        if revision == "":
            _create(connection)
            return HEAD
    if revision != HEAD:
        raise SchemaOutOfDate(
            f"the database's schema is at revision {revision or 'none (before migrations)'}, "
            f"this version of the game needs {HEAD}: stop the servers, back up the database "
            f"and run `flask --app app upgrade-db`")
    return revision


def upgrade() -> tuple[str | None, str]:
    """Bring any database to the latest revision; returns (revision before, after), before
    being "" for an empty database and None for one made before migrations."""
    import flask_migrate
    with database.schema_transaction() as connection:
        before = _revision(connection)
        if before == "":
            _create(connection)
            return before, HEAD
        if before is None:  # made by create_all before migrations existed
            _stamp(connection, BASELINE)
    flask_migrate.upgrade(directory=str(MIGRATIONS))
    return before, HEAD


def init_migrate(app) -> None:
    """Flask-Migrate, for the `flask --app app db ...` commands and upgrade()."""
    from flask_migrate import Migrate
    # render_as_batch: SQLite changes most columns only by copying the table.
    Migrate(app, db, directory=str(MIGRATIONS), render_as_batch=True)
