"""The database's tables: created whole on an empty database, otherwise moved on only by
migrations (Alembic through Flask-Migrate, in ``migrations/``), which the operator runs
with ``flask --app app upgrade-db`` when upgrading.

An app refuses to start on a database whose schema is not the one its code expects (a
clear message in the log rather than errors on every request). A database from before
migrations existed (tables, no ``alembic_version``) has the first revision's schema.
"""
import functools
from pathlib import Path

import flask_migrate
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from . import store
from .extensions import db

MIGRATIONS = Path(__file__).resolve().parents[1] / "migrations"
BASELINE = "0001"  # the first migration: the tables as they were before migrations


class SchemaOutOfDate(RuntimeError):
    pass


@functools.cache
def head() -> str:
    return ScriptDirectory(str(MIGRATIONS)).get_current_head()


def _revision(connection) -> str | None:
    """The schema's revision; "" for an empty database, None for tables without a revision."""
    revision = MigrationContext.configure(connection).get_current_revision()
    if revision is None and not set(db.metadata.tables) & set(inspect(connection).get_table_names()):
        return ""
    return revision


def _create(connection) -> None:
    db.metadata.create_all(connection)
    MigrationContext.configure(connection).stamp(ScriptDirectory(str(MIGRATIONS)), "head")


def prepare() -> str:
    """At start: an empty database gets every table, at the latest revision. Returns the
    revision; raises SchemaOutOfDate if the database needs ``upgrade-db`` (or newer code)."""
    with store.schema_transaction() as connection:
        revision = _revision(connection)
        if revision == "":
            _create(connection)
            return head()
    if revision != head():
        raise SchemaOutOfDate(
            f"the database's schema is at revision {revision or 'none (before migrations)'}, "
            f"this version of the game needs {head()}: stop the servers, back up the database "
            f"and run `flask --app app upgrade-db`")
    return revision


def upgrade() -> tuple[str | None, str]:
    """Bring any database to the latest revision; returns (revision before, after), before
    being "" for an empty database and None for one made before migrations."""
    with store.schema_transaction() as connection:
        before = _revision(connection)
        if before == "":
            _create(connection)
            return before, head()
        if before is None:  # made by create_all before migrations existed
            MigrationContext.configure(connection).stamp(ScriptDirectory(str(MIGRATIONS)), BASELINE)
    flask_migrate.upgrade(directory=str(MIGRATIONS))
    return before, head()
