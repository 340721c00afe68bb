"""A table as JSON (the ``table`` of the lobby's answers and of every player's view).

Built from plain values, so the lobby (from ORM rows) and the poll (from its one raw
read) make the same object the same way.
"""
import json

from flask import current_app

from .. import engine, service
from ..models import Table
from .http import now, public_url
from .screen_link import screen_url


def table_json(table_id: str, code: str, name: str, status: str, host_seat: int | None, seated: int,
               settings: str, public: bool, spectators: int, screen_rev: int) -> dict:
    """``status`` is "lobby", "running" or "ended"; ``settings`` the table's JSON column;
    ``public``: listed for everyone; ``spectators``: accounts watching now; ``screen_rev``:
    which key of the room's screen holds. Whom it is sent to sees it through ``seen_from``."""
    settings = json.loads(settings)
    found = {
        "id": table_id,
        "code": code,
        "name": name,
        "status": status,
        "host_seat": host_seat,
        "seated": seated,
        "settings": engine.shown_settings(settings, seated),
        "time_scale": current_app.config["TIME_SCALE"],
        "url": public_url("pages.table_page", code=code),
        # Listed for everyone in the lobby (else joined by link, code or QR): only a waiting table.
        "public": status == "lobby" and public,
        # The room's big screen (public information only): its link goes to the host alone.
        "screen_url": screen_url(table_id, screen_rev),
    }
    if status == "lobby":   # the waiting room's card counter, and what the start would refuse
        found["deck"] = engine.deck_check(settings, seated)
    if settings.get("options", {}).get("spectators"):
        found["spectators"] = spectators
    return found


def seen_from(table: dict, seat: int | None) -> dict:
    """The ``table`` part as the viewer in ``seat`` (None: not seated) may see it: the room
    screen's link, with its key, only for the host; the host decides who watches."""
    if seat is not None and seat == table["host_seat"]:
        return table
    return {key: value for key, value in table.items() if key != "screen_url"}


def table_json_of(table: Table, spectators: int | None = None) -> dict:
    """``table_json`` of a table row (with its seats and current game); ``spectators``: the
    count if already read."""
    host = service.seat_of(table, table.host_user_id) if table.host_user_id else None
    status = service.table_status(table)
    if spectators is None:
        spectators = service.spectator_count(table.id, now()) if service.spectators_allowed(table) else 0
    return table_json(table.id, table.code, table.name, status, host.number if host else None,
                      len(table.seats), table.settings, status == "lobby" and service.is_public(table), spectators,
                      table.screen_rev)
