"""Helpers shared by the JSON blueprints: reading bodies, refusing politely."""
from flask import current_app, jsonify, request

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
