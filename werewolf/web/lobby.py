"""Tables before (and between) games: create, list, join, leave, settings, start."""
from flask import Blueprint, current_app, jsonify, request, url_for
from flask_login import current_user, login_required
from sqlalchemy import func, or_, select
from sqlalchemy.orm import aliased

from .. import service
from ..extensions import db
from ..models import PublicTable, Seat, Table
from .assets import compressed
from .http import json_body, now
from .tables import seen_from, table_json_of

bp = Blueprint("lobby", __name__, url_prefix="/api/tables")


@bp.before_request
@login_required
def _login_first():
    pass


def _ok(table: Table, status: int = 200):
    mine = service.seat_of(table, current_user.id)
    return jsonify({"table": seen_from(table_json_of(table), mine.number if mine else None)}), status


@bp.get("")
@compressed()
def list_tables():
    """Waiting tables listed for everyone, and those where I am seated, newest first;
    304 when the list has not changed. The others are joined by link, code or QR."""
    seated = func.count(Seat.id).label("seated")
    my_seat = aliased(Seat)
    mine = select(my_seat.id).where(my_seat.table_id == Table.id, my_seat.user_id == current_user.id).exists()
    rows = db.session.execute(
        select(Table, seated).join(Seat, Seat.table_id == Table.id)
        .outerjoin(PublicTable, PublicTable.table_id == Table.id)
        .where(Table.current_game_id.is_(None), or_(PublicTable.table_id.is_not(None), mine))
        .group_by(Table.id).having(seated < service.MAX_PLAYERS)
        .order_by(Table.created_at.desc()).limit(50)
    ).all()
    tables = [{"id": t.id, "code": t.code, "name": t.name, "seated": n,
               "host": next((s.user.name for s in t.seats if s.user_id == t.host_user_id), None),
               "url": url_for("pages.table_page", code=t.code)} for t, n in rows]
    response = jsonify({"tables": tables})
    response.add_etag()
    response.cache_control.no_cache = True
    response.cache_control.private = True
    return response.make_conditional(request)


@bp.post("")
def create():
    body = json_body()
    return _ok(service.create_table(current_user, body.get("name"), now()), 201)


@bp.get("/by-code/<code>")
def by_code(code: str):
    table = db.session.scalar(select(Table).where(Table.code == code.strip().upper()))
    if table is None:
        raise service.ServiceError(404, "table_not_found", "No table has this code.")
    return _ok(table)


@bp.post("/<table_id>/join")
def join(table_id: str):
    return _ok(service.join_table(table_id, current_user, now()))


@bp.post("/<table_id>/leave")
def leave(table_id: str):
    return _ok(service.leave_table(table_id, current_user, now()))


@bp.delete("/<table_id>/seats/<int:number>")
def remove_seat(table_id: str, number: int):
    return _ok(service.remove_seat(table_id, current_user, number, now()))


@bp.post("/<table_id>/visibility")
def visibility(table_id: str):
    return _ok(service.set_public(table_id, current_user, json_body().get("public"), now()))


@bp.patch("/<table_id>/settings")
def settings(table_id: str):
    return _ok(service.update_settings(table_id, current_user, json_body(), now()))


@bp.post("/<table_id>/start")
def start(table_id: str):
    return _ok(service.start_game(table_id, current_user, now(), current_app.config["TIME_SCALE"]))


@bp.post("/<table_id>/end")
def end(table_id: str):
    """The host ends a running game for everyone (no winner, every card shown)."""
    return _ok(service.end_game(table_id, current_user, now()))


@bp.post("/<table_id>/screen-link")
def renew_screen_link(table_id: str):
    """The host gives the room's screen a new link: the one shown before stops working."""
    return _ok(service.renew_screen_link(table_id, current_user, now()))


@bp.post("/<table_id>/reopen")
def reopen(table_id: str):
    """"New game": the host brings the table and its players back to the lobby."""
    return _ok(service.reopen_table(table_id, current_user, now()))
