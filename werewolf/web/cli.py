"""``flask --app app`` commands for operators."""
import click
from flask import current_app

from ..extensions import db
from .. import service


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
