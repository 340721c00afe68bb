"""``flask --app app`` commands for operators."""
from datetime import datetime, timezone

import click
from flask import current_app
from flask.cli import AppGroup

from .. import service
from ..extensions import db

users = AppGroup("users", help="List the accounts, or disable one.")
tables = AppGroup("tables", help="List the tables, or end one.")


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
    """Delete the table TABLE (its id or code) with its seats and games, even mid-game."""
    try:
        table_id, code = service.end_table(table)
    except service.ServiceError as error:
        _refused(error)
    click.echo(f"ended table {code} ({table_id})")


def register(app) -> None:
    @app.cli.command("init-db")
    def init_db():
        """Create the database tables (also done at every start)."""
        db.create_all()
        click.echo(f"database ready: {current_app.config['SQLALCHEMY_DATABASE_URI']}")

    @app.cli.command("advance-due")
    def advance_due():
        """Advance every game whose step deadline has passed, once."""
        click.echo(f"advanced {service.advance_due(current_app.extensions['werewolf.clock']())} game(s)")

    app.cli.add_command(users)
    app.cli.add_command(tables)
