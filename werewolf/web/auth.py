"""Accounts: register, log in (remembered), log out (here or everywhere), who am I, change
the password, delete."""
from flask import Blueprint, current_app, jsonify, redirect, request, url_for
from flask_login import current_user, login_required, login_user, logout_user
from flask_wtf.csrf import generate_csrf

from .. import service
from ..extensions import db, login_manager
from ..models import User
from .http import error_response, json_body, now
from .session import parse_login

bp = Blueprint("auth", __name__, url_prefix="/api")


@login_manager.user_loader
def load_user(value: str):
    """The account a session or remember cookie names, if its key still matches."""
    login = parse_login(value)
    user = db.session.get(User, login.user_id) if login is not None else None
    if user is None or not user.is_active or not login.matches(user.password_hash, user.session_tokens):
        return None
    user.session_token = login.token  # get_id names the same session again
    return user


@login_manager.unauthorized_handler
def unauthorized():
    if request.path.startswith("/api/"):
        return error_response(401, "login_required", "Log in first.")
    return redirect(url_for("pages.login", next=request.full_path.rstrip("?")))


def user_json(user) -> dict | None:
    """``guest``: an account with no password yet (it may add one: POST /api/auth/password)."""
    return {"id": user.id, "name": user.name, "guest": user.is_guest} if user.is_authenticated else None


@bp.get("/me")
def me():
    return jsonify({"user": user_json(current_user), "csrf_token": generate_csrf()})


@bp.post("/auth/register")
def register():
    body = json_body()
    # In "invite" mode the page sends the code of the table whose link brought the player.
    service.check_registration_open(current_app.config["REGISTRATION"], body.get("table_code"))
    # Arrived by a table's link with only a name: a guest's account, protected later (issue 35).
    guest = body.get("password") is None and isinstance(body.get("table_code"), str)
    user = service.start_session(service.register(body.get("name"), body.get("password"), now(), guest=guest))
    login_user(user, remember=True)
    answer = {"user": user_json(user), "csrf_token": generate_csrf()}
    if body.get("table_code") is not None:
        # Arrived by a table's link or QR code: seated there in the same request, if it still waits.
        table = service.join_by_code(body["table_code"], user, now())
        answer["table"] = None if table is None else {
            "code": table.code, "url": url_for("pages.table_page", code=table.code),
            "seated": service.seat_of(table, user.id) is not None}
    return jsonify(answer), 201


@bp.post("/auth/login")
def login():
    body = json_body()
    user = service.start_session(service.authenticate(body.get("name"), body.get("password")))
    login_user(user, remember=True)
    return jsonify({"user": user_json(user), "csrf_token": generate_csrf()})


@bp.post("/auth/logout")
def logout():
    """Ends this session on the server too: a copy of its cookies no longer logs in."""
    if current_user.is_authenticated:
        service.end_session(current_user.id, current_user.session_token)
    logout_user()
    return jsonify({"ok": True})


@bp.post("/auth/logout-everywhere")
@login_required
def logout_everywhere():
    """Ends every session of the account, on every device, this one included."""
    service.end_all_sessions(current_user.id)
    logout_user()
    return jsonify({"ok": True})


@bp.post("/auth/password")
@login_required
def change_password():
    body = json_body()
    user = service.change_password(current_user, body.get("old_password"), body.get("new_password"))
    login_user(user, remember=True)  # this session goes on with the new key; the others end
    return jsonify({"user": user_json(user), "csrf_token": generate_csrf()})


@bp.delete("/me")
@login_required
def delete_me():
    service.delete_account(current_user, json_body().get("password"), now())
    logout_user()
    return jsonify({"ok": True})
