"""The installable app: the web app manifest (one per language), the service worker, the
offline page it keeps, and the Web Push subscriptions of "your turn" (werewolf/push.py).

- ``/manifest/<lang>.webmanifest``: a manifest is fetched without cookies, so its language
  is in its path; every page links the one of its own language.
- ``/sw.js``: at the root, so that its scope is the whole site. It keeps the shell (the
  offline page in the three languages, its CSS, JS and icons, at their fingerprinted
  URLs) and never a view: it does not touch /api/ at all (static/js/sw.js says how).
- ``/offline/<lang>``: « Reconnexion… », what a page shows instead of the browser's error
  page when the server cannot be reached. Anonymous, so the cache holds nobody's name.
"""
import base64
import binascii
import hashlib
import json
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, url_for
from flask_babel import force_locale
from flask_babel import gettext as _
from flask_login import current_user, login_required
from sqlalchemy import delete, func, select

from .. import database, push
from ..extensions import db
from ..models import PushSubscription
from ..service import ServiceError
from .http import json_body, now
from .i18n import CATALOG_LOCALES, HTML_LANG, language

bp = Blueprint("phone", __name__)

# Day and night (static/css/app.css): the browser's bar takes the page's colour.
THEME_DAY = "#f7efe0"
THEME_NIGHT = "#0b0f22"
ICON_BACKGROUND = "#1b1530"
# The shell's files, kept by the service worker (their fingerprinted URLs).
SHELL_STATIC = ["css/app.css", "js/common.js", "js/offline.js", "favicon.svg",
                "icons/icon.svg", "icons/icon-192.png", "icons/maskable-512.png"]


def _language_or_404(lang: str) -> str:
    if lang not in current_app.config["LANGUAGES"]:
        abort(404)
    return lang


@bp.get("/manifest/<lang>.webmanifest")
def manifest(lang: str):
    lang = _language_or_404(lang)
    with force_locale(CATALOG_LOCALES.get(lang, lang)):
        body = {
            "id": "/",
            "name": _("Loups-Garous en ligne"),
            "short_name": _("Loups-Garous"),
            "description": _("Le jeu des Loups-Garous entre amis, chacun sur son téléphone."),
            "lang": HTML_LANG.get(lang, lang),
            "dir": "ltr",
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "background_color": THEME_NIGHT,
            "theme_color": THEME_NIGHT,
            "categories": ["games"],
            "icons": [
                {"src": url_for("static", filename="icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
                {"src": url_for("static", filename="icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
                {"src": url_for("static", filename="icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
                {"src": url_for("static", filename="icons/maskable-512.png"), "sizes": "512x512",
                 "type": "image/png", "purpose": "maskable"},
            ],
        }
    return Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json",
                    headers={"Cache-Control": "no-cache"})


def shell() -> tuple[dict, str]:
    """What the service worker keeps, and the words of its notifications; its version changes
    with any of it (and with the worker's own code), so browsers install the new one."""
    languages = current_app.config["LANGUAGES"]
    data = {
        "offline": {lang: url_for("phone.offline", lang=lang) for lang in languages},
        "default_language": current_app.config["BABEL_DEFAULT_LOCALE"],
        "assets": [url_for("static", filename=name) for name in SHELL_STATIC],
        "icon": url_for("static", filename="icons/icon-192.png"),
        "turn": {},
    }
    for lang in languages:
        with force_locale(CATALOG_LOCALES.get(lang, lang)):
            data["turn"][lang] = _("À toi de jouer")
    source = Path(current_app.static_folder, "js", "sw.js").read_text(encoding="utf-8")
    data["version"] = hashlib.sha256((json.dumps(data, sort_keys=True) + source).encode()).hexdigest()[:12]
    return data, source


@bp.get("/sw.js")
def service_worker():
    data, source = shell()
    body = f"const SHELL = {json.dumps(data, ensure_ascii=False)};\n{source}"
    # Browsers check the worker for updates themselves; no-cache: each check sees the new one.
    return Response(body, mimetype="text/javascript", headers={"Cache-Control": "no-cache"})


@bp.get("/offline/<lang>")
def offline(lang: str):
    lang = _language_or_404(lang)
    with force_locale(CATALOG_LOCALES.get(lang, lang)):
        html = render_template("offline.html", lang=lang, locale=HTML_LANG.get(lang, lang))
    return Response(html, mimetype="text/html",
                    headers={"Cache-Control": "no-cache", "Content-Language": HTML_LANG.get(lang, lang)})


@bp.after_app_request
def _content_language(response):
    """A page says its language, so the service worker shows the offline page in it. A 304
    has no body (its default mimetype is no page): a state poll answered so skips this."""
    if response.status_code != 304 and response.mimetype == "text/html" and "Content-Language" not in response.headers:
        lang = language()
        response.headers["Content-Language"] = HTML_LANG.get(lang, lang)
    return response


@bp.app_context_processor
def _phone_globals():
    return {"theme_day": THEME_DAY, "theme_night": THEME_NIGHT,
            "push_key": current_app.config.get("VAPID_PUBLIC_KEY")}


# ---------------------------------------------------------------- Web Push subscriptions

def _b64url_bytes(value, size: int, first: int | None = None) -> bool:
    if not isinstance(value, str) or len(value) > 200:
        return False
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return False
    return len(raw) == size and (first is None or raw[0] == first)


def _subscription(body: dict) -> tuple[str, str, str]:
    """(endpoint, p256dh, auth) of a PushSubscription's JSON (the Push API's toJSON())."""
    endpoint = body.get("endpoint")
    if not isinstance(endpoint, str) or not 0 < len(endpoint) <= 1000 or not push.accepted_endpoint(endpoint):
        raise ServiceError(400, "bad_push_endpoint", "\"endpoint\" must be the URL of a known push service.")
    keys = body.get("keys")
    keys = keys if isinstance(keys, dict) else {}
    # p256dh: the browser's P-256 public key, uncompressed (65 bytes, 0x04 first); auth: 16 bytes.
    if not _b64url_bytes(keys.get("p256dh"), 65, 0x04) or not _b64url_bytes(keys.get("auth"), 16):
        raise ServiceError(400, "bad_push_keys", "\"keys\" must hold the subscription's p256dh and auth.")
    return endpoint, keys["p256dh"], keys["auth"]


@bp.post("/api/me/push-subscription")
@login_required
def subscribe():
    if current_app.config.get("VAPID_PUBLIC_KEY") is None:
        raise ServiceError(409, "push_not_configured", "This server sends no push messages.")
    endpoint, p256dh, auth = _subscription(json_body())
    user_id = current_user.id
    with database.write_transaction(tables=()):
        # One browser, one row: the account now logged in there gets its pushes.
        db.session.execute(delete(PushSubscription).where(PushSubscription.endpoint == endpoint))
        db.session.add(PushSubscription(user_id=user_id, endpoint=endpoint, p256dh=p256dh, auth=auth,
                                        lang=language(), created_at=now()))
        db.session.flush()
        count = db.session.scalar(select(func.count()).where(PushSubscription.user_id == user_id))
        if count > push.MAX_PER_USER:
            oldest = db.session.scalars(select(PushSubscription.id).where(PushSubscription.user_id == user_id)
                                        .order_by(PushSubscription.created_at, PushSubscription.id)
                                        .limit(count - push.MAX_PER_USER)).all()
            db.session.execute(delete(PushSubscription).where(PushSubscription.id.in_(oldest)))
    return jsonify({"ok": True}), 201


@bp.delete("/api/me/push-subscription")
@login_required
def unsubscribe():
    endpoint = json_body().get("endpoint")
    if not isinstance(endpoint, str) or not 0 < len(endpoint) <= 1000:
        raise ServiceError(400, "bad_push_endpoint", "\"endpoint\" must be the subscription's URL.")
    with database.write_transaction(tables=()):
        db.session.execute(delete(PushSubscription).where(PushSubscription.endpoint == endpoint,
                                                          PushSubscription.user_id == current_user.id))
    return jsonify({"ok": True})


def register(app) -> None:
    push.configure(app)
    app.register_blueprint(bp)
