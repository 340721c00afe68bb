"""``flask --app app`` commands for operators."""
import os
import sqlite3
from pathlib import Path

import click
from flask import current_app

from ..extensions import db
from .. import schema, service


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
