"""HTML pages. They carry no game data: the scripts in static/js fetch it from the API."""
import io
import ipaddress
import re
import socket
from functools import lru_cache
from urllib.parse import unquote, urlsplit

import segno
from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from sqlalchemy import select

from .. import service
from ..extensions import db
from ..models import Seat, Table
from . import rules_page
from .assets import compressed
from .http import public_url
from .i18n import HTML_LANG, LANGUAGE_NAMES, language, remember_language
from .strings import client_strings

bp = Blueprint("pages", __name__)


@bp.after_app_request
def _after(response):
    return remember_language(response)


@bp.app_context_processor
def _globals():
    lang = language()
    return {"client_strings": client_strings, "locale": HTML_LANG.get(lang, lang), "lang": lang,
            "languages": [(code, LANGUAGE_NAMES[code]) for code in current_app.config["LANGUAGES"]],
            "lang_url": _lang_url}


def _lang_url(code: str) -> str:
    """This page in another language, its other query parameters kept (the screen's key)."""
    if request.endpoint is None or request.endpoint == "static":
        return "?lang=" + code
    return url_for(request.endpoint, **{**(request.view_args or {}), **request.args.to_dict(), "lang": code})


def same_site_path(target) -> str | None:
    r"""``target`` if it is a path of this site, else None: where to go after logging in,
    so that a crafted link cannot send a player elsewhere.

    Browsers read a backslash as a slash and drop tabs and newlines anywhere in a URL, so
    "/\\evil.example" or "/\t/evil.example" lead to another site: a path must start with
    one "/" and hold no backslash and nothing unprintable, as sent and once percent-decoded.
    """
    if not isinstance(target, str) or len(target) > 2048:
        return None
    for form in (target, unquote(target)):
        if not form.startswith("/") or form[1:2] == "/" or "\\" in form or not form.isprintable():
            return None
    parts = urlsplit(target)
    return target if not (parts.scheme or parts.netloc) else None


def _next_path(target) -> str:
    return same_site_path(target) or url_for("pages.lobby")


@bp.get("/")
@compressed()
@login_required
def lobby():
    return render_template("lobby.html", resume=_my_live_tables())


def _my_live_tables() -> list[Table]:
    """The tables where I sit and a game runs, newest first: « Reprendre ma partie » (issue 35)."""
    tables = db.session.scalars(select(Table).join(Seat, Seat.table_id == Table.id)
                                .where(Seat.user_id == current_user.id)).unique().all()
    live = [t for t in tables if service.table_status(t) == "running"]
    return sorted(live, key=lambda t: t.current_game.created_at, reverse=True)


def _auth_page(mode: str, invite: Table | None = None):
    """``invite``: the table whose link brought a newcomer (registering seats them there)."""
    if invite is not None:
        next_path = url_for("pages.table_page", code=invite.code)
    else:
        next_path = _next_path(request.args.get("next"))
    if current_user.is_authenticated:
        return redirect(next_path)
    # Arriving from a table's link (/t/CODE): in "invite" mode that code lets a new account in.
    table_code = re.fullmatch(r"/t/([A-Za-z0-9]{1,16})", next_path)
    host = next((s.user.name for s in invite.seats if s.user_id == invite.host_user_id), None) if invite else None
    # A game under way seats nobody new: the invitation must not promise a place (issue 35).
    invite_running = invite is not None and service.table_status(invite) == "running"
    return render_template("auth.html", mode=mode, next=next_path, invite=invite, invite_host=host,
                           invite_running=invite_running,
                           registration=current_app.config["REGISTRATION"], password_min=service.PASSWORD_MIN,
                           table_code=table_code.group(1).upper() if table_code else "")


@bp.get("/login")
@compressed()
def login():
    return _auth_page("login")


@bp.get("/register")
@compressed()
def register():
    """Create an account; with ``?table=CODE`` (a table's link) the new player is also seated there."""
    return _auth_page("register", _table_or_none(request.args.get("table")))


@bp.get("/account")
@login_required
def account():
    return render_template("account.html", password_min=service.PASSWORD_MIN)


def _table_or_none(code) -> Table | None:
    if not isinstance(code, str) or not 0 < len(code) <= 16:
        return None
    return db.session.scalar(select(Table).where(Table.code == code.strip().upper()))


def _table_by_code(code: str) -> Table:
    table = _table_or_none(code)
    if table is None:
        abort(404)
    return table


@bp.get("/t/<code>")
@compressed()
def table_page(code: str):
    table = _table_by_code(code)
    if not current_user.is_authenticated:
        # The table's link or QR code: a new player creates an account and sits down in one go
        # (an existing one follows "log in" from there, and comes back here).
        return redirect(url_for("pages.register", table=table.code))
    # Not seated yet: the page shows "join" at once instead of polling into a 403.
    seated = any(s.user_id == current_user.id for s in table.seats)
    return render_template("table.html", table=table, seated=seated, status=service.table_status(table),
                           watchable=service.spectators_allowed(table), local_link=_local_link(),
                           lan_url=_lan_url(table))


def _local_link() -> bool:
    """The table's link would name this computer only (opened as localhost, no WEREWOLF_PUBLIC_URL)."""
    return not current_app.config.get("PUBLIC_URL") and _is_loopback(request.host.rsplit(":", 1)[0].strip("[]"))


def _lan_url(table: Table) -> str | None:
    """When the host opened the site as localhost, the address other phones could try instead."""
    if not _local_link():
        return None
    address = _lan_address()
    if address is None:
        return None
    port = request.host.rsplit(":", 1)[1] if request.host.count(":") == 1 else None
    return f"{request.scheme}://{address}{':' + port if port else ''}" + url_for("pages.table_page", code=table.code)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@lru_cache(maxsize=1)
def _lan_address() -> str | None:
    """This machine's address on its local network: connecting a UDP socket sends nothing."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_loopback else address


@bp.get("/rules")
@compressed()
def rules():
    """The rules, from the engine's own roles and steps (see rules_page)."""
    return render_template("rules.html", roles=rules_page.roles(), steps=rules_page.steps(),
                           wolves=rules_page.wolves())


@bp.get("/t/<code>/qr.svg")
def table_qr(code: str):
    table = _table_by_code(code)
    url = public_url("pages.table_page", code=table.code)
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, border=2, dark="#1b1530", light="#ffffff")
    return Response(out.getvalue(), mimetype="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=86400"})
