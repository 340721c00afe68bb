"""Playing: the per-player state poll (with ETag/304), actions and chat."""
import json

from flask import Blueprint, current_app, jsonify, request
from flask_login import current_user, login_required
from sqlalchemy import select

from .. import engine, service, store
from ..extensions import db, login_manager
from ..models import Game, Seat, Table
from ..service import ServiceError
from . import poll, view
from .http import json_body, now
from .session import session_login, verified_user_id
from .tables import table_json_of

bp = Blueprint("api", __name__, url_prefix="/api/tables")

@login_required
def _require_login():
    pass


# Playing needs only the user's id, which the signed session holds (its key checked
# against the account's hash): these routes load no user row (the seat query answers
# "not seated" for an id without one).
_BY_SESSION_ID = ("api.state", "api.act", "api.chat")


@bp.before_request
def _login_first():
    if request.endpoint in _BY_SESSION_ID and verified_user_id() is not None:
        return None
    return _require_login()


def _my_id() -> int:
    user_id = verified_user_id()
    return user_id if user_id is not None else current_user.id


def _is_int(value) -> bool:
    return type(value) is int  # bool is an int subclass and is not a seat


# The body field of each choice kind (engine.registry.BODY_FIELDS) and its type check.
_KIND_CHECKS = {
    engine.registry.SEAT: (lambda v: v is None or _is_int(v), "a seat number or null"),
    engine.registry.SEATS: (lambda v: isinstance(v, list) and len(v) <= service.MAX_PLAYERS and all(map(_is_int, v)),
                            "a list of seat numbers"),
    engine.registry.CARD: (_is_int, "a middle card: 1 or 2"),
}
_FIELD_CHECKS = {engine.registry.BODY_FIELDS[kind]: check for kind, check in _KIND_CHECKS.items()}


def action_body(body: dict) -> dict:
    """Keep only the fields of an action, each with the type the engine expects."""
    action = body.get("action")
    if not isinstance(action, str) or not 0 < len(action) <= 64:
        raise ServiceError(400, "bad_request", "\"action\" must be an action name.")
    clean = {"action": action}
    for name, (valid, what) in _FIELD_CHECKS.items():
        if name in body:
            if not valid(body[name]):
                raise ServiceError(400, "bad_request", f"\"{name}\" must be {what}.")
            clean[name] = body[name]
    if "step" in body:
        if not _is_int(body["step"]):
            raise ServiceError(400, "bad_request", "\"step\" must be a step number.")
        clean["step"] = body["step"]
    return clean


@bp.post("/<table_id>/act")
def act(table_id: str):
    t = now()
    service.act(table_id, _my_id(), action_body(json_body()), t)
    return done_with_view(table_id, t, 200)


@bp.post("/<table_id>/chat")
def chat(table_id: str):
    body = json_body()
    channel, text = body.get("channel"), body.get("text")
    if not isinstance(channel, str) or len(channel) > 64 or not isinstance(text, str):
        raise ServiceError(400, "bad_request", "\"channel\" and \"text\" must be text.")
    t = now()
    service.chat(table_id, _my_id(), channel, text, t)
    return done_with_view(table_id, t, 201)


def wants_view() -> bool:
    """``Prefer: return=representation`` (RFC 7240): the client wants its view back."""
    return any(p.strip().lower() == "return=representation"
               for p in request.headers.get("Prefer", "").replace(";", ",").split(","))


def done_with_view(table_id: str, t: float, status: int):
    """``{"ok": true}``; asked for with ``Prefer: return=representation``, ``{"ok": true,
    "etag", "view"}``: the caller's view after their write, exactly what their next poll
    would answer (the same ETag, from the same cache of serialized views), so the page
    need not poll again at once. Without a seat any more: ``{"ok": true}``."""
    if not wants_view():
        return jsonify({"ok": True}), status
    environ = {k: v for k, v in request.environ.items() if k != "HTTP_IF_NONE_MATCH"}  # always the view
    # The poll's own way first (its kept reads, the game the write just cached): the ORM's
    # loads of the table, its seats and its game cost more than the move itself.
    login = session_login()  # its key is checked against the seat's account by fast_state
    answer = poll.fast_state(current_app._get_current_object(), environ, table_id, login, t) if login else None
    if answer is None:
        db.session.rollback()  # read the table as the write left it
        table = db.session.get(Table, table_id)
        seat = service.seat_of(table, _my_id()) if table is not None else None
        if seat is None:
            return jsonify({"ok": True}), status
        answer = state_answer(table, seat, t, environ)
    etag = answer.headers[[name for name, _ in answer.headers].index("ETag")][1]
    body = b'{"ok":true,"etag":' + json.dumps(etag).encode() + b',"view":' + answer.body.rstrip() + b"}\n"
    response = current_app.response_class(body, status=status, mimetype="application/json")
    response.headers["ETag"] = etag
    response.headers["Cache-Control"] = "no-cache, private"
    return response


# ---------------------------------------------------------------- the poll

def _my_seat(table_id: str) -> Seat | None:
    """My seat at the table; None for a spectator (a table that lets accounts not seated watch)."""
    seat = db.session.scalar(select(Seat).where(Seat.table_id == table_id, Seat.user_id == current_user.id))
    if seat is None:
        table = db.session.get(Table, table_id)
        if table is None:
            raise ServiceError(404, "table_not_found", "No such table.")
        if not service.spectators_allowed(table):
            raise ServiceError(403, "not_seated", "You are not seated at this table.")
    return seat


@bp.get("/<table_id>/state")
def state(table_id: str):
    t = now()  # what poll.PollGate did not answer: the lobby, strangers, strong session protection
    if not current_user.is_authenticated:  # a session naming a user that no longer exists
        return login_manager.unauthorized()
    app = current_app._get_current_object()
    seat = _my_seat(table_id)
    if seat is not None:
        poll.note_presence(app, seat.id, seat.last_seen, t)
    else:
        service.watch(table_id, current_user.id, t)
    advance_if_due(table_id, t)
    table = db.session.get(Table, table_id)
    if table is None:  # ended between the two reads
        raise ServiceError(404, "table_not_found", "No such table.")
    seat = service.seat_of(table, current_user.id)
    if seat is None and not service.spectators_allowed(table):  # removed between the two reads
        raise ServiceError(403, "not_seated", "You are not seated at this table.")
    return state_response(table, seat, t)


def advance_if_due(table_id: str, t: float) -> None:
    """Advance the table's game if its step is overdue (play goes on even if no scheduler
    runs), then end the read transaction so the table is read as it is now."""
    due = store.due_game_id(table_id, t)
    if due is not None:
        poll.advance_once(current_app._get_current_object(), due, t)
    db.session.rollback()


def state_response(table: Table, seat: Seat | None, t: float):
    """The view of ``seat`` (None: the public view of spectators and the room's screen), or a 304."""
    return view.flask_response(state_answer(table, seat, t, request.environ))


def state_answer(table: Table, seat: Seat | None, t: float, environ: dict) -> view.Answer:
    app = current_app._get_current_object()
    number = seat.number if seat is not None else None
    connected = view.connected_seats(table.seats, number, t)
    row: Game | None = table.current_game
    game = store.load_game(row) if row is not None else None
    spectators = service.spectator_count(table.id, t)  # as the poll gate's read counts them
    etag = view.etag_of(table.id, table.lobby_rev, number, connected,
                        (row.id, game.version_for(number)) if game is not None else None, spectators)

    def build():
        if game is None:
            players = view.lobby_view([(s.number, s.user.name) for s in table.seats], number)
            return players, table_json_of(table, spectators), connected, None
        return view.game_view(game, number, t), table_json_of(table, spectators), connected, game.deadline

    return view.answer(app, environ, t, etag, build)
