"""The room's big screen: a TV or a laptop that every player in the room sees.

No account: the table's id and a read-only key that only the host's page shows
(``tables.seen_from``). The key (screen_link.py) is an HMAC of the table id and its ``screen_rev`` under
the app's secret key, so it cannot be guessed from the code or the link; when the host
renews it (``service.renew_screen_link``) the revision moves on and the old key stops
working. What the screen receives is exactly the public
view (``engine.view_for(game, None)``, like a spectator's): never a living player's
card, a night action or a private channel.
"""
import hmac

from flask import Blueprint, render_template, request

from ..extensions import db
from ..models import Table
from ..service import ServiceError
from . import poll
from .screen_link import screen_key
from .view import event_stream, flask_response

bp = Blueprint("screen", __name__)

def _table_for_key(table_id: str) -> Table:
    """The table if ``?key=`` is its screen key; else the same 404 as a table that does not exist."""
    key = request.args.get("key", "")
    table = db.session.get(Table, table_id) if len(table_id) <= 64 else None
    if table is None or not isinstance(key, str) or not hmac.compare_digest(
            key.encode(), screen_key(table.id, table.screen_rev).encode()):
        raise ServiceError(404, "table_not_found", "No such table.")
    return table


@bp.get("/tables/<table_id>/screen")
def screen_page(table_id: str):
    table = _table_for_key(table_id)
    return render_template("screen.html", table=table, key=screen_key(table.id, table.screen_rev))


def _screen_viewer(table: Table) -> poll.Viewer:
    viewer = poll.Viewer(None, screen_rev=table.screen_rev)
    db.session.close()  # the key is checked: a held poll or a stream holds no database connection meanwhile
    return viewer


@bp.get("/api/tables/<table_id>/screen")
def screen_state(table_id: str):
    """The public view of the table for the room's screen, with ETag/304 like the player's poll."""
    table = _table_for_key(table_id)
    return flask_response(poll.answer(table.id, _screen_viewer(table), request.environ))


@bp.get("/api/tables/<table_id>/screen/events")
def screen_events(table_id: str):
    """The room's screen's views as Server-Sent Events, as a seat's (poll.stream); a renewed
    key ends the stream, and the screen's next request is a 404."""
    table = _table_for_key(table_id)
    return event_stream(poll.stream(table.id, _screen_viewer(table), request.environ))
