"""Past games: my games, one game's end, its replay, the host's shared link, my stats
(werewolf/history.py decides who may see what), and their pages."""
from flask import Blueprint, abort, jsonify, render_template, request
from flask_login import current_user, login_required

from .. import history
from ..service import ServiceError
from .assets import compressed
from .auth import unauthorized
from .http import public_url

bp = Blueprint("games", __name__)


def _me() -> int | None:
    return current_user.id if current_user.is_authenticated else None


def _game_id(value: str) -> int | None:
    """A game id from the path (no int converter: ``/api/games/x`` is a 404 of ours, in JSON)."""
    return int(value) if value.isdigit() and len(value) <= 18 else None


def _share_url(row) -> str | None:
    return public_url("games.game_page", game_id=row.id, key=row.share_key) if row.share_key else None


def _access():
    return history.access(_game_id(request.view_args["game_id"]), _me(), request.args.get("key"))


@bp.get("/api/me/games")
@login_required
@compressed()
def my_games():
    return jsonify({"games": history.my_games(current_user.id)})


@bp.get("/api/me/stats")
@login_required
def my_stats():
    return jsonify(history.my_stats(current_user.id))


@bp.get("/api/games/<game_id>")
@compressed()
def game_end(game_id: str):
    acc = _access()
    host = not acc.shared and acc.row.host_user_id == acc.user_id
    return jsonify(history.end(acc, _share_url(acc.row) if host else None))


@bp.get("/api/games/<game_id>/replay")
@compressed()
def game_replay(game_id: str):
    acc = _access()
    seat = history.replay_seat(acc, request.args.get("seat"))
    return jsonify({"id": acc.row.id, "seat": seat, "steps": history.replay(acc.row, seat)})


@bp.post("/api/games/<game_id>/share")
@login_required
def share(game_id: str):
    history.share(_game_id(game_id), current_user.id)
    return jsonify({"url": _share_url(_access().row)})


@bp.delete("/api/games/<game_id>/share")
@login_required
def unshare(game_id: str):
    history.unshare(_game_id(game_id), current_user.id)
    return jsonify({"ok": True})


# ---------------------------------------------------------------- pages

@bp.get("/games/<game_id>")
@compressed()
def game_page(game_id: str):
    """A finished game's end and replay, for its players, or read-only through its link."""
    try:
        acc = _access()
    except ServiceError:
        if not current_user.is_authenticated and not request.args.get("key"):
            return unauthorized()  # log in first, then back here
        abort(404)  # not a player, no valid link, or not over yet: as if it did not exist
    return render_template("game.html", game_id=acc.row.id, key=request.args.get("key") if acc.shared else "",
                           shared=acc.shared, table_name=acc.row.table_name)


@bp.get("/stats")
@login_required
@compressed()
def stats_page():
    return render_template("stats.html")
