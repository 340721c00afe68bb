"""Every refusal is JSON ``{"error": {"code", "message"}}`` under /api/, a plain page elsewhere."""
import logging

from flask import render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from .. import engine
from ..service import ServiceError
from .http import error_response

log = logging.getLogger(__name__)

# Engine codes that mean "not now" rather than "malformed" or "not you".
_CONFLICT_CODES = {"wrong_step", "stale_step", "game_over"}
_FORBIDDEN_CODES = {"not_your_turn"}


def engine_status(code: str) -> int:
    if code in _CONFLICT_CODES:
        return 409
    if code in _FORBIDDEN_CODES:
        return 403
    return 400


def _is_api() -> bool:
    return request.path.startswith("/api/")


def _page(status: int, message: str):
    return render_template("error.html", status=status, message=message), status


def register(app) -> None:
    @app.errorhandler(ServiceError)
    def service_error(e: ServiceError):
        if _is_api():
            return error_response(e.status, e.code, e.message)
        return _page(e.status, e.message)

    @app.errorhandler(engine.IllegalAction)
    def illegal_action(e):
        return error_response(engine_status(e.code), e.code, getattr(e, "message", None) or str(e))

    @app.errorhandler(CSRFError)
    def csrf_error(e: CSRFError):
        if _is_api():
            return error_response(400, "csrf_failed", e.description)
        return _page(400, e.description)

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        if _is_api():
            code = (e.name or "error").lower().replace(" ", "_").replace("'", "")
            return error_response(e.code or 500, code, e.description or e.name)
        return _page(e.code or 500, e.name)

    @app.errorhandler(Exception)
    def unexpected(e: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        if _is_api():
            return error_response(500, "internal_error", "Something went wrong on the server.")
        return _page(500, "Internal Server Error")
