"""Playing: the per-player state poll (with ETag/304), actions and chat."""
import json

from flask import Blueprint, current_app, jsonify, request
from flask_login import current_user, login_required

from .. import engine, service
from ..service import ServiceError
from . import poll, view
from .http import json_body, now
from .session import session_login, verified_user_id

bp = Blueprint("api", __name__, url_prefix="/api/tables")

@login_required
def _require_login():
    pass


# Playing needs only the user's id, which the signed session holds (its key checked
# against the account's hash): these routes load no user row (the seat query answers
# "not seated" for an id without one). The poll checks the key against its own read.
_BY_SESSION_ID = ("api.act", "api.chat")


@bp.before_request
def _login_first():
    if request.endpoint in ("api.state", "api.events") or (request.endpoint in _BY_SESSION_ID and verified_user_id() is not None):
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
    would answer (``poll.state_answer``), so the page need not poll again at once.
    Without a seat any more: ``{"ok": true}``."""
    if not wants_view():
        return jsonify({"ok": True}), status
    try:
        answer = poll.state_answer(table_id, viewer(), t, request.environ, None).answer  # always the view
    except ServiceError:
        return jsonify({"ok": True}), status
    etag = answer.header("ETag")
    body = b'{"ok":true,"etag":' + json.dumps(etag).encode() + b',"view":' + answer.body.rstrip() + b"}\n"
    response = current_app.response_class(body, status=status, mimetype="application/json")
    response.headers["ETag"] = etag
    response.headers["Cache-Control"] = "no-cache, private"
    return response


def viewer() -> poll.Viewer:
    """Who the session says this is, its key to be checked by the poll's own read; else
    Flask-Login's user (a remembered login, strong session protection); else 401."""
    login = session_login()
    if login is not None:
        return poll.Viewer(login.user_id, login)
    if not current_user.is_authenticated:
        raise ServiceError(401, "login_required", "Log in first.")
    return poll.Viewer(current_user.id)


@bp.get("/<table_id>/state")
def state(table_id: str):
    return view.flask_response(poll.answer(table_id, viewer(), request.environ))


@bp.get("/<table_id>/events")
def events(table_id: str):
    """My views as Server-Sent Events, each as it happens (poll.stream, API.md)."""
    return view.event_stream(poll.stream(table_id, viewer(), request.environ))
