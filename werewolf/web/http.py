"""Helpers shared by the JSON blueprints: reading bodies, refusing politely."""
from flask import Request, current_app, jsonify, request, url_for
from flask.json.provider import DefaultJSONProvider

from ..engine.text import TextRefused, is_unicode
from ..service import ServiceError

MAX_DEPTH = 16  # nested arrays and objects in a body; the deepest the API takes is 3 (settings)


def check_json(value) -> None:
    """Refuse, at the input boundary, JSON that no field takes: a string (key or value) that
    is not valid Unicode, or nesting deeper than MAX_DEPTH. Raises TextRefused."""
    todo = [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, str):
            if not is_unicode(item):
                raise TextRefused("text_invalid", "Text must be valid Unicode (no lone surrogate).")
        elif isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                raise TextRefused("bad_request", f"The body nests more than {MAX_DEPTH} levels.")
            todo.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
            if isinstance(item, dict):
                todo.extend((k, depth) for k in item)


class StrictJSONProvider(DefaultJSONProvider):
    """Flask's JSON, whose ``loads`` refuses what ``check_json`` refuses (a ValueError, as
    for malformed JSON): every body read as JSON passes here (``request.get_json``)."""

    def loads(self, s, **kwargs):
        try:
            value = super().loads(s, **kwargs)
        except RecursionError:  # the json module's own limit, far deeper than MAX_DEPTH
            raise TextRefused("bad_request", f"The body nests more than {MAX_DEPTH} levels.") from None
        check_json(value)
        return value


class StrictRequest(Request):
    """A body refused by StrictJSONProvider, or malformed, is the project's 400."""

    def on_json_loading_failed(self, e):
        if isinstance(e, TextRefused):
            raise ServiceError(400, e.code, e.message)
        raise ServiceError(400, "bad_request", "The body must be a JSON object.")


def now() -> float:
    return current_app.extensions["werewolf.clock"]()


def json_body() -> dict:
    """The request's JSON object; an empty body counts as ``{}``. Anything else is a 400."""
    if not request.content_length and not request.is_json:
        return {}
    body = request.get_json() if request.is_json else None
    if not isinstance(body, dict):
        raise ServiceError(400, "bad_request", "The body must be a JSON object.")
    return body


def error_response(status: int, code: str, message: str):
    return jsonify({"error": {"code": code, "message": message}}), status


def public_url(endpoint: str, **values) -> str:
    """An absolute link for other devices: on WEREWOLF_PUBLIC_URL when set, else the request's host."""
    base = current_app.config.get("PUBLIC_URL")
    if base:
        return str(base).rstrip("/") + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)
