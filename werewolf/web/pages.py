"""HTML pages. They carry no game data: the scripts in static/js fetch it from the API."""
import io

import segno
from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_login import current_user, login_required
from sqlalchemy import select

from .. import service
from ..extensions import db
from ..models import Table
from .i18n import remember_language
from .strings import client_strings

bp = Blueprint("pages", __name__)


@bp.after_app_request
def _after(response):
    return remember_language(response)


@bp.app_context_processor
def _globals():
    return {"client_strings": client_strings, "locale": str(get_locale())}


def _safe_next(target: str | None) -> str:
    # Only local paths, so a crafted link cannot send a player elsewhere after login.
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return url_for("pages.lobby")


@bp.get("/")
@login_required
def lobby():
    return render_template("lobby.html")


@bp.get("/login")
def login():
    if current_user.is_authenticated:
        return redirect(_safe_next(request.args.get("next")))
    return render_template("auth.html", mode="login", next=_safe_next(request.args.get("next")))


@bp.get("/register")
def register():
    if current_user.is_authenticated:
        return redirect(_safe_next(request.args.get("next")))
    return render_template("auth.html", mode="register", next=_safe_next(request.args.get("next")))


def _table_by_code(code: str) -> Table:
    table = db.session.scalar(select(Table).where(Table.code == code.upper()))
    if table is None:
        abort(404)
    return table


@bp.get("/t/<code>")
@login_required
def table_page(code: str):
    table = _table_by_code(code)
    # Not seated yet: the page shows "join" at once instead of polling into a 403.
    seated = any(s.user_id == current_user.id for s in table.seats)
    return render_template("table.html", table=table, seated=seated, status=service.table_status(table),
                           watchable=service.spectators_allowed(table))


@bp.get("/t/<code>/qr.svg")
def table_qr(code: str):
    table = _table_by_code(code)
    url = url_for("pages.table_page", code=table.code, _external=True)
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, border=2, dark="#1b1530", light="#ffffff")
    return Response(out.getvalue(), mimetype="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=86400"})
