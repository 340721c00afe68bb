"""Web Push: "your turn" reaches a phone whose page is closed (issue 37).

Where the operator sets ``WEREWOLF_VAPID_PRIVATE_KEY``, every step that begins with a prompt
for some seats sends those seats' players a push, to each browser they subscribed
(``POST /api/me/push-subscription``). pywebpush signs it (VAPID, RFC 8292) and encrypts it
for the browser (RFC 8291): the push service reads nothing of it. It says only "À toi de
jouer" and the table's path, nothing of the game; its TTL is the step's time left, so a
push that could only arrive after the step closed is dropped by the push service.

The sends go to a small thread pool: a slow push service never holds a move or the
scheduler's tick. A subscription the push service calls gone (404, 410) is deleted.
A subscription's endpoint must be on one of ``PUSH_SERVICES`` (the browsers' push
services by default): the server POSTs to it, and any other address would let a player
make the server call hosts of their choosing.
"""
import json
import logging
import os
import re
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

from flask import current_app
from flask_babel import force_locale
from flask_babel import gettext as _
from sqlalchemy import bindparam, text

from . import database, engine
from .extensions import db
from .languages import CATALOG_LOCALES
from .models import PushSubscription

log = logging.getLogger(__name__)

# Where browsers' subscriptions point: Chrome's and Android's, Firefox's, Safari's, Edge's.
PUSH_SERVICES = ["https://fcm.googleapis.com", "https://updates.push.services.mozilla.com",
                 "https://web.push.apple.com", "https://*.notify.windows.com"]
MIN_TTL = 30        # seconds a push may wait for a phone that is off
SEND_TIMEOUT = 10   # seconds for one push service's answer
MAX_PER_USER = 10   # browsers one account may subscribe (the oldest is dropped)


class Pusher:
    """The configured sender of one app: the VAPID key and the pool that sends."""

    def __init__(self, app, vapid, public_key: str, subject: str):
        self.app, self.vapid, self.public_key, self.subject = app, vapid, public_key, subject
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="push")

    def send(self, subscription: tuple, payload: dict, ttl: int) -> None:
        """One push, on a pool thread (pywebpush's own requests call)."""
        from pywebpush import WebPushException, webpush
        sub_id, endpoint, p256dh, auth = subscription
        try:
            webpush({"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
                    data=json.dumps(payload, ensure_ascii=False), vapid_private_key=self.vapid,
                    vapid_claims={"sub": self.subject}, ttl=ttl, timeout=SEND_TIMEOUT,
                    headers={"Urgency": "high"})
        except WebPushException as error:
            status = error.response.status_code if error.response is not None else None
            if status in (404, 410):  # unsubscribed, or expired: never again
                with self.app.app_context():
                    forget(sub_id)
            else:
                log.warning("push to %s failed: %s", urlsplit(endpoint).netloc, status or error)
        except Exception:  # noqa: BLE001 - a push service down must not end the pool's thread
            log.exception("push to %s failed", urlsplit(endpoint).netloc)


def configure(app) -> None:
    """Read the VAPID key from the settings; without one, pushes are off (nothing is sent)."""
    app.config.setdefault("PUSH_SERVICES", PUSH_SERVICES)
    private = app.config.get("VAPID_PRIVATE_KEY")
    if not private:
        app.config["VAPID_PUBLIC_KEY"] = None
        return
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    from py_vapid import Vapid, b64urlencode
    private = str(private).strip()
    if os.path.isfile(private):
        vapid = Vapid.from_file(private)
    elif private.startswith("-----BEGIN"):
        vapid = Vapid.from_pem(private.encode())
    else:
        vapid = Vapid.from_string(private)
    public = b64urlencode(vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
    given = app.config.get("VAPID_PUBLIC_KEY")
    if given and str(given).strip() != public:
        raise ValueError("WEREWOLF_VAPID_PUBLIC_KEY is not the public key of WEREWOLF_VAPID_PRIVATE_KEY")
    app.config["VAPID_PUBLIC_KEY"] = public
    base = app.config.get("PUBLIC_URL")
    subject = app.config.get("VAPID_SUBJECT") or (base if str(base or "").startswith("https://")
                                                  else "mailto:werewolf@localhost")
    app.extensions["werewolf.push"] = Pusher(app, vapid, public, subject)


def accepted_endpoint(endpoint: str) -> bool:
    """On one of PUSH_SERVICES: same scheme, same host (``*.`` for any subdomain), same port."""
    try:
        url = urlsplit(endpoint)
        port = url.port
    except ValueError:
        return False
    for service in current_app.config["PUSH_SERVICES"]:
        allowed = urlsplit(service)
        host = re.escape(allowed.hostname or "").replace(r"\*\.", r"(?:[a-z0-9-]+\.)+")
        if url.scheme == allowed.scheme and re.fullmatch(host, url.hostname or "") and port == allowed.port:
            return True
    return False


def forget(sub_id: int) -> None:
    with database.write_transaction(tables=()):
        db.session.query(PushSubscription).filter_by(id=sub_id).delete()


_SUBSCRIPTIONS_OF_SEATS = text(
    "SELECT p.id, p.endpoint, p.p256dh, p.auth, p.lang, t.code FROM push_subscriptions p"
    " JOIN seats s ON s.user_id = p.user_id JOIN tables t ON t.id = s.table_id"
    " WHERE s.table_id = :table_id AND s.number IN :seats").bindparams(bindparam("seats", expanding=True))


def step_began(table_id: str, game, now: float) -> None:
    """A step began: push "your turn" to the players it opens a prompt for (no-op without VAPID).

    Generic: a seat is prompted when the engine offers it an action, as its view says."""
    pusher = current_app.extensions.get("werewolf.push")
    if pusher is None or game.status != "running":
        return
    seats = [seat for seat in engine.actors(game) if seat not in game.left and engine.legal_actions(game, seat)]
    if not seats:
        return
    with db.engine.connect() as connection:  # not the request's session: its transaction is done
        rows = connection.execute(_SUBSCRIPTIONS_OF_SEATS, {"table_id": table_id, "seats": seats}).all()
    ttl = max(MIN_TTL, int(game.deadline - now)) if game.deadline is not None else MIN_TTL
    words: dict[str, str] = {}
    for sub_id, endpoint, p256dh, auth, lang, code in rows:
        if lang not in words:
            with force_locale(CATALOG_LOCALES.get(lang, lang)):
                words[lang] = _("À toi de jouer")
        payload = {"title": words[lang], "url": f"/t/{code}", "tag": f"turn-{table_id}"}
        pusher.pool.submit(pusher.send, (sub_id, endpoint, p256dh, auth), payload, ttl)
