"""Helpers shared by the JSON blueprints: reading bodies, refusing politely."""
from flask import current_app, jsonify, request, url_for

from ..service import ServiceError


def now() -> float:
    return current_app.extensions["werewolf.clock"]()


def json_body() -> dict:
    """The request's JSON object; an empty body counts as ``{}``. Anything else is a 400."""
    if not request.content_length and not request.is_json:
        return {}
    body = request.get_json(silent=True)
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
