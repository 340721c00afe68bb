"""``flask --app app`` commands for operators."""
import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import click
from flask import current_app
from flask.cli import AppGroup

from .. import history, schema, service
from ..extensions import db

users = AppGroup("users", help="List the accounts, or disable one.")
tables = AppGroup("tables", help="List the tables, or end one.")
games = AppGroup("games", help="Past games: remove the old ones.")


def _when(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%d %H:%M")


def _refused(error: service.ServiceError):
    raise click.ClickException(error.message)


@users.command("list")
def users_list():
    """Every account: id, name, status (active, disabled, deleted), created (UTC)."""
    for user in service.list_users():
        click.echo(f"{user.id}\t{user.name}\t{user.status}\t{_when(user.created_at)}")


@users.command("disable")
@click.argument("name")
def users_disable(name):
    """The account NAME can no longer log in, and its sessions stop working at once."""
    try:
        user = service.disable_user(name)
    except service.ServiceError as error:
        _refused(error)
    click.echo(f"disabled {user.name} (id {user.id})")


@tables.command("list")
def tables_list():
    """Every table: id, code, status (lobby, running, ended), players, host, name, created (UTC)."""
    for table in service.list_tables():
        host = next((s.user.name for s in table.seats if s.user_id == table.host_user_id), "-")
        click.echo(f"{table.id}\t{table.code}\t{service.table_status(table)}\t{len(table.seats)}"
                   f"\t{host}\t{table.name}\t{_when(table.created_at)}")


@tables.command("end")
@click.argument("table")
def tables_end(table):
    """Delete the table TABLE (its id or code) with its seats and its running game, even
    mid-game (its finished games stay, see `games prune`)."""
    try:
        table_id, code = service.end_table(table)
    except service.ServiceError as error:
        _refused(error)
    click.echo(f"ended table {code} ({table_id})")


@games.command("prune")
@click.option("--older-than", "days", type=click.FloatRange(min=0), required=True, metavar="DAYS",
              help="Remove the finished games started more than DAYS days ago.")
def games_prune(days):
    """Delete the finished games started more than DAYS days ago, with their replay and
    link (running games are kept; a table still showing one goes back to its waiting room)."""
    pruned = history.prune(days, current_app.extensions["werewolf.clock"]())
    click.echo(f"removed {pruned} finished game(s) started more than {days:g} day(s) ago")


def register(app) -> None:
    @app.cli.command("init-db")
    def init_db():
        """Create the tables of a new database (also done when the server starts)."""
        try:
            revision = schema.prepare()
        except schema.SchemaOutOfDate as e:
            raise click.ClickException(str(e)) from None
        click.echo(f"database ready at revision {revision}: {_database()}")

    @app.cli.command("upgrade-db")
    def upgrade_db():
        """Bring the database's tables to this version of the game (run after an update)."""
        before, after = schema.upgrade()
        if before == "":
            click.echo(f"new database created at revision {after}: {_database()}")
        elif before == after:
            click.echo(f"database already at revision {after}: {_database()}")
        else:
            click.echo(f"database upgraded from revision {before or 'none'} to {after}: {_database()}")

    @app.cli.command("advance-due")
    def advance_due():
        """Advance every game whose step deadline has passed, once."""
        click.echo(f"advanced {service.advance_due(current_app.extensions['werewolf.clock']())} game(s)")

    @app.cli.command("backup")
    @click.argument("path", type=click.Path(dir_okay=False, writable=True, path_type=Path))
    def backup(path: Path):
        """Copy the SQLite database to PATH, safely while the server runs."""
        url = db.engine.url
        if url.get_backend_name() != "sqlite":
            raise click.ClickException(
                "only an SQLite database is copied by this command; for PostgreSQL use "
                f"pg_dump, e.g. pg_dump --format=custom --file={path} {url.database}")
        copy_sqlite(url.database, path)
        click.echo(f"copied {url.database} to {path}")

    app.cli.add_command(users)
    app.cli.add_command(tables)
    app.cli.add_command(games)


def _database() -> str:
    return db.engine.url.render_as_string(hide_password=True)


def copy_sqlite(source: str, target: Path) -> None:
    """SQLite's online backup: one read transaction, so a consistent copy while writers go on
    (in WAL mode they are not blocked). Written beside ``target``, checked, then renamed."""
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    src = sqlite3.connect(source, timeout=30)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)
            if dst.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise click.ClickException(f"the copy in {partial} is damaged")
        finally:
            dst.close()
    finally:
        src.close()
    os.replace(partial, target)
