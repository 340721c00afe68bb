"""Every refusal is JSON ``{"error": {"code", "message"}}`` under /api/, a plain page elsewhere."""
import logging

from flask import render_template, request
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, NotFound, RequestURITooLarge

from .. import engine
from ..service import ServiceError
from .http import error_response

log = logging.getLogger(__name__)

# No page or API route has a longer address. gunicorn.conf.py lets request lines of up to
# 8190 bytes (limit_request_line) reach the app, which answers a longer URL in its own
# error shape (gunicorn's own refusal is an HTML page).
MAX_URL_LENGTH = 4000

# Engine codes that mean "not now" rather than "malformed" or "not you".
_CONFLICT_CODES = {"wrong_step", "stale_step", "game_over", "bad_composition", "bad_player_count"}
_FORBIDDEN_CODES = {"not_your_turn", "left_game"}


def engine_status(code: str) -> int:
    if code in _CONFLICT_CODES:
        return 409
    if code in _FORBIDDEN_CODES:
        return 403
    return 400


def _is_api() -> bool:
    return request.path.startswith("/api/")


def _page(status: int):
    """A plain page in the reader's language; details stay in the logs."""
    messages = {
        400: _("Cette demande n’a pas pu être traitée."),
        401: _("Connecte-toi d’abord."),
        403: _("Tu n’as pas accès à cette page."),
        404: _("Cette page n’existe pas."),
        405: _("Cette demande n’a pas pu être traitée."),
        414: _("Cette demande n’a pas pu être traitée."),
        429: _("Trop de demandes : attends un peu."),
    }
    message = messages.get(status, _("Le serveur a eu un problème. Réessaie dans un instant."))
    return render_template("error.html", status=status, message=message), status


def register(app) -> None:
    @app.before_request
    def refuse_nul_in_path():
        if len(request.path) + len(request.query_string) > MAX_URL_LENGTH:
            raise RequestURITooLarge()
        # No table id, code or page has a NUL; PostgreSQL refuses it in any query (a 500).
        if "\x00" in request.path:
            raise NotFound()

    @app.errorhandler(ServiceError)
    def service_error(e: ServiceError):
        if _is_api():
            return error_response(e.status, e.code, e.message)
        return _page(e.status)

    @app.errorhandler(engine.IllegalAction)
    def illegal_action(e):
        return error_response(engine_status(e.code), e.code, getattr(e, "message", None) or str(e))

    @app.errorhandler(CSRFError)
    def csrf_error(e: CSRFError):
        if _is_api():
            return error_response(400, "csrf_failed", e.description)
        return _page(400)

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        if _is_api():
            code = (e.name or "error").lower().replace(" ", "_").replace("'", "")
            return error_response(e.code or 500, code, e.description or e.name)
        return _page(e.code or 500)

    @app.errorhandler(Exception)
    def unexpected(e: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        if _is_api():
            return error_response(500, "internal_error", "Something went wrong on the server.")
        return _page(500)
