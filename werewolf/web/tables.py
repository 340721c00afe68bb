"""A table as JSON (the ``table`` of the lobby's answers and of every player's view).

Built from plain values, so the lobby (from ORM rows) and the poll gate (from its one
raw read) make the same object the same way.
"""
import json

from flask import current_app, url_for

from .. import engine, service
from ..models import Table


def table_json(table_id: str, code: str, name: str, status: str, host_seat: int | None, seated: int,
               settings: str) -> dict:
    """``status`` is "lobby", "running" or "ended"; ``settings`` the table's JSON column."""
    return {
        "id": table_id,
        "code": code,
        "name": name,
        "status": status,
        "host_seat": host_seat,
        "seated": seated,
        "settings": engine.shown_settings(json.loads(settings), seated),
        "time_scale": current_app.config["TIME_SCALE"],
        "url": url_for("pages.table_page", code=code, _external=True),
    }


def table_json_of(table: Table) -> dict:
    """``table_json`` of a table row (with its seats and current game)."""
    host = service.seat_of(table, table.host_user_id) if table.host_user_id else None
    return table_json(table.id, table.code, table.name, service.table_status(table),
                      host.number if host else None, len(table.seats), table.settings)
