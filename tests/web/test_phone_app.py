"""The installable app (issue 37): the manifest in three languages, linked by every page; the
service worker and the shell it keeps; the offline page; Web Push subscriptions and the push
a step sends to the seats it prompts, received by a push service this test runs itself
(the VAPID signature checked, the payload decrypted as the browser would)."""
import base64
import json
import os
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid

from werewolf import engine, store
from werewolf.extensions import db
from werewolf.models import PushSubscription

from .conftest import Player

NAMES = {"fr": "Loups-Garous en ligne", "en": "Werewolves online", "zh": "線上狼人殺"}
RECONNECTING = {"fr": "Reconnexion…", "en": "Reconnecting…", "zh": "重新連線中…"}


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# ---------------------------------------------------------------- a push service of our own

class PushService:
    """An HTTP server standing for a browser's push service: records each POST; answers 201,
    or the status set for a path (410: that subscription is gone)."""

    def __init__(self):
        self.received: list[dict] = []
        self.status_of: dict[str, int] = {}
        self.arrived = threading.Condition()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with service.arrived:
                    service.received.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body})
                    service.arrived.notify_all()
                self.send_response(service.status_of.get(self.path, 201))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def wait_for(self, count: int, timeout: float = 10.0) -> list[dict]:
        """At least ``count`` pushes (the app sends them from its pool threads)."""
        deadline = time.monotonic() + timeout
        with self.arrived:
            while len(self.received) < count:
                left = deadline - time.monotonic()
                assert left > 0, f"{len(self.received)} pushes arrived, {count} expected"
                self.arrived.wait(left)
            return list(self.received)

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class Browser:
    """A browser's side of a subscription: its P-256 key pair and auth secret (RFC 8291)."""

    def __init__(self, service: PushService, name: str):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.path = f"/push/{name}"
        self.endpoint = service.url + self.path

    def subscription(self) -> dict:
        public = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)}}

    def decrypt(self, push: dict) -> dict:
        assert push["headers"]["content-encoding"] == "aes128gcm"
        return json.loads(http_ece.decrypt(push["body"], private_key=self.key, auth_secret=self.auth,
                                           version="aes128gcm"))


def check_vapid(push: dict, public_key: str, audience: str) -> dict:
    """The VAPID header (RFC 8292): ``vapid t=<ES256 JWT>, k=<the server's public key>``,
    the token signed by that key for this push service's origin. Returns its claims."""
    match = re.fullmatch(r"vapid t=([\w-]+)\.([\w-]+)\.([\w-]+), ?k=([\w-]+)", push["headers"]["authorization"])
    assert match, push["headers"]["authorization"]
    header, claims, signature, key = match.groups()
    assert key == public_key
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    verifier = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    verifier.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                    f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    claims = json.loads(unb64url(claims))
    assert claims["aud"] == audience and claims["sub"].startswith(("mailto:", "https://"))
    assert claims["exp"] > time.time()
    return claims


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.stop()


@pytest.fixture
def vapid():
    key = Vapid()
    key.generate_keys()
    return key


@pytest.fixture
def app(make_app, push_service, vapid):
    """A server with VAPID keys whose push services are the test's own."""
    return make_app(VAPID_PRIVATE_KEY=vapid.private_pem().decode(), PUSH_SERVICES=[push_service.url])


def public_key_of(vapid) -> str:
    return b64url(vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))


# ---------------------------------------------------------------- the manifest and the pages

@pytest.mark.parametrize("lang", ["fr", "en", "zh"])
def test_the_manifest_of_each_language_has_what_installing_needs(client, lang):
    response = client.get(f"/manifest/{lang}.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data(as_text=True))
    assert manifest["name"] == NAMES[lang] and manifest["short_name"]
    assert manifest["lang"] == {"zh": "zh-Hant"}.get(lang, lang)
    assert manifest["start_url"] == "/" and manifest["scope"] == "/" and manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    sizes = {(icon["sizes"], icon.get("purpose", "any"), icon["type"]) for icon in manifest["icons"]}
    assert {("192x192", "any", "image/png"), ("512x512", "any", "image/png"),
            ("512x512", "maskable", "image/png"), ("any", "any", "image/svg+xml")} <= sizes
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200 and image.mimetype == icon["type"], icon
        if icon["type"] == "image/png":  # the size it claims (the PNG's IHDR)
            width, height = int.from_bytes(image.data[16:20], "big"), int.from_bytes(image.data[20:24], "big")
            assert f"{width}x{height}" == icon["sizes"], icon


def test_an_unknown_language_has_no_manifest_nor_offline_page(client):
    assert client.get("/manifest/de.webmanifest").status_code == 404
    assert client.get("/offline/de").status_code == 404


def test_every_page_links_the_manifest_of_its_language(app, make_table):
    table = make_table(5)
    host = table.host
    screen_url, code = (host.state(table.id)["table"][k] for k in ("screen_url", "code"))
    screen_url = screen_url.split("://", 1)[-1].split("/", 1)[1] if "://" in screen_url else screen_url
    screen_url = "/" + screen_url.lstrip("/")
    anonymous = app.test_client()
    pages = [(host.client, path) for path in ("/", "/account", "/rules", f"/t/{code}", "/t/NOSUCH")]
    pages += [(anonymous, "/login"), (anonymous, "/register"), (anonymous, screen_url)]
    for lang in ("fr", "en", "zh"):
        for client, path in pages:
            response = client.get(path + ("&" if "?" in path else "?") + f"lang={lang}")
            html = response.get_data(as_text=True)
            assert f'<link rel="manifest" href="/manifest/{lang}.webmanifest">' in html, (path, lang)
            if response.mimetype == "text/html" and path != screen_url:
                assert re.search(r'<meta name="theme-color" content="#[0-9a-f]{6}" data-day="#[0-9a-f]{6}" '
                                 r'data-night="#[0-9a-f]{6}">', html), path


# ---------------------------------------------------------------- the service worker and its shell

def shell_of(client) -> dict:
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    first = response.get_data(as_text=True).splitlines()[0]
    assert first.startswith("const SHELL = ") and first.endswith(";")
    return json.loads(first[len("const SHELL = "):-1])


def test_the_service_worker_keeps_the_shell_and_nothing_of_the_api(client):
    shell = shell_of(client)
    kept = list(shell["offline"].values()) + shell["assets"]
    assert set(shell["offline"]) == {"fr", "en", "zh"}
    for url in kept:
        assert not url.startswith("/api/"), url
        assert client.get(url).status_code == 200, url
    assert all("?v=" in url for url in shell["assets"])  # fingerprinted: a new file, a new URL
    source = client.get("/sw.js").get_data(as_text=True)
    # /api/ is left to the browser before anything else; nothing is put in a cache at run time
    # but the language of the pages (no response of a page or of the API).
    assert 'url.pathname.startsWith("/api/")) return;' in source
    puts = re.findall(r"cache\.put\(([^,]+),", source)
    assert puts == ["url", "LANGUAGE_KEY"], puts


def test_the_worker_changes_with_the_shell(make_app):
    """Its text changes with what it keeps: browsers then install the new worker."""
    before = shell_of(make_app().test_client())["version"]
    assert shell_of(make_app().test_client())["version"] == before
    assert shell_of(make_app(LANGUAGES=["fr", "en"]).test_client())["version"] != before


@pytest.mark.parametrize("lang", ["fr", "en", "zh"])
def test_the_offline_page_says_reconnecting_in_each_language_and_names_nobody(make_player, lang):
    player = make_player("Zoé")
    response = player.client.get(f"/offline/{lang}")
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and RECONNECTING[lang] in html
    assert response.headers["Content-Language"] == {"zh": "zh-Hant"}.get(lang, lang)
    assert f'<html lang="{ {"zh": "zh-Hant"}.get(lang, lang) }">' in html
    assert "Zoé" not in html and 'id="logout"' not in html  # a logged-in player's too: the cache is nobody's
    assert 'id="retry-btn"' in html and "js/offline.js" in html


def test_pages_say_their_language_for_the_offline_page(client):
    assert client.get("/login?lang=zh").headers["Content-Language"] == "zh-Hant"
    assert client.get("/login?lang=en").headers["Content-Language"] == "en"
    assert "Content-Language" not in client.get("/api/me").headers


# ---------------------------------------------------------------- subscriptions

def table_page(player: Player) -> str:
    code = player.post("/api/tables", {"name": "Thiercelieux"}).get_json()["table"]["code"]
    return player.client.get(f"/t/{code}").get_data(as_text=True)


def test_subscribing_needs_the_servers_keys(make_app):
    app = make_app()  # no VAPID key: pushes are off
    player = Player(app, "Alice").register()
    html = table_page(player)
    assert 'class="notify-btn"' in html and "data-push-key" not in html
    response = player.post("/api/me/push-subscription",
                           {"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": {}})
    assert response.status_code == 409 and response.get_json()["error"]["code"] == "push_not_configured"


def test_a_subscription_is_checked_kept_moved_and_forgotten(app, make_player, push_service, vapid):
    alice, bruno = make_player("Alice"), make_player("Bruno")
    browser = Browser(push_service, "phone")
    good = browser.subscription()
    assert alice.post("/api/me/push-subscription", good, csrf=False).status_code == 400  # CSRF
    assert app.test_client().post("/api/me/push-subscription", json=good).status_code in (400, 401)
    for bad, code in [
        ({**good, "endpoint": "http://169.254.169.254/latest"}, "bad_push_endpoint"),  # not a push service
        ({**good, "endpoint": push_service.url.replace("http:", "https:") + "/x"}, "bad_push_endpoint"),
        ({**good, "endpoint": "https://fcm.googleapis.com.evil.example/x"}, "bad_push_endpoint"),
        ({**good, "endpoint": 5}, "bad_push_endpoint"),
        ({**good, "endpoint": push_service.url + "/" + "x" * 1000}, "bad_push_endpoint"),
        ({**good, "keys": {"p256dh": good["keys"]["p256dh"][:-4], "auth": good["keys"]["auth"]}}, "bad_push_keys"),
        ({**good, "keys": {"p256dh": good["keys"]["p256dh"], "auth": "!!"}}, "bad_push_keys"),
        ({**good, "keys": None}, "bad_push_keys"),
        ({"endpoint": good["endpoint"]}, "bad_push_keys"),
    ]:
        response = alice.post("/api/me/push-subscription", bad)
        assert response.status_code == 400 and response.get_json()["error"]["code"] == code, bad
    with app.app_context():
        assert db.session.query(PushSubscription).count() == 0  # refused: nothing kept

    assert alice.post("/api/me/push-subscription", good).status_code == 201
    assert alice.post("/api/me/push-subscription", good).status_code == 201  # again: still one
    # The same browser, Bruno logged in there now: his.
    assert bruno.post("/api/me/push-subscription", good).status_code == 201
    with app.app_context():
        assert [s.user_id for s in db.session.query(PushSubscription)] == [user_id_of(app, "Bruno")]
    # Alice cannot forget Bruno's; Bruno can.
    assert alice.request("DELETE", "/api/me/push-subscription", {"endpoint": good["endpoint"]}).status_code == 200
    with app.app_context():
        assert db.session.query(PushSubscription).count() == 1
    assert bruno.request("DELETE", "/api/me/push-subscription", {}).status_code == 400
    assert bruno.request("DELETE", "/api/me/push-subscription", {"endpoint": good["endpoint"]}).status_code == 200
    with app.app_context():
        assert db.session.query(PushSubscription).count() == 0
    # The table page of a server with keys gives the browser the public one.
    assert f'data-push-key="{public_key_of(vapid)}"' in table_page(alice)


def user_id_of(app, name: str) -> int:
    from werewolf.models import User
    with app.app_context():
        return db.session.query(User).filter_by(name=name).one().id


def test_an_account_keeps_its_newest_browsers_and_loses_them_with_its_password(app, make_player, push_service):
    from werewolf import push
    alice = make_player("Alice")
    browsers = [Browser(push_service, f"b{i}") for i in range(push.MAX_PER_USER + 2)]
    for browser in browsers:
        assert alice.post("/api/me/push-subscription", browser.subscription()).status_code == 201
    with app.app_context():
        kept = {s.endpoint for s in db.session.query(PushSubscription)}
    assert kept == {b.endpoint for b in browsers[2:]}
    response = alice.post("/api/auth/password", {"old_password": "Lune pleine 42", "new_password": "autrechose"})
    assert response.status_code == 200
    with app.app_context():
        assert db.session.query(PushSubscription).count() == 0


# ---------------------------------------------------------------- the pushes

def subscribe_everyone(table, service) -> dict[int, Browser]:
    browsers = {}
    for seat, player in table.seats.items():
        browsers[seat] = Browser(service, f"seat{seat}")
        assert player.post("/api/me/push-subscription", browsers[seat].subscription()).status_code == 201
    return browsers


def prompted(table) -> set[int]:
    return {seat for seat, view in table.views().items() if view["prompt"]}


def test_a_step_pushes_your_turn_to_the_seats_it_prompts_and_no_one_else(app, make_table, push_service, vapid,
                                                                        clock):
    table = make_table(6).start()
    code = table.host.state(table.id)["table"]["code"]
    browsers = subscribe_everyone(table, push_service)
    by_path = {b.path: seat for seat, b in browsers.items()}
    pushed_steps = 0
    for _ in range(4):  # a few steps, each ended by its time running out (the poll advances it)
        table.finish_step()
        before = len(push_service.received)
        view = table.host.state(table.id)
        if view["status"] != "running":
            break
        expected = prompted(table)
        if not expected:
            continue
        pushes = push_service.wait_for(before + len(expected))[before:]
        time.sleep(0.2)  # nothing more comes: one push per prompted seat
        assert len(push_service.received) == before + len(expected)
        assert {by_path[p["path"]] for p in pushes} == expected, view["step"]["id"]
        for push in pushes:
            seat = by_path[push["path"]]
            check_vapid(push, public_key_of(vapid), push_service.url)
            # Nothing of the game: the words, the table's page, a tag that merges it with the page's own.
            assert browsers[seat].decrypt(push) == {"title": "À toi de jouer", "url": f"/t/{code}",
                                                    "tag": f"turn-{table.id}"}
            ttl = int(push["headers"]["ttl"])
            assert 30 <= ttl <= max(30, table.host.state(table.id)["step"]["seconds_left"] + 1)
            assert push["headers"]["urgency"] == "high"
        pushed_steps += 1
    assert pushed_steps >= 2


def test_moves_that_open_steps_push_each_prompted_seat_once_a_step(app, make_table, push_service):
    """Acting begins steps too (not only the clock); a step whose prompt stays open while
    moves come in (a vote) pushes once, when it begins, to the seats prompted then."""
    import random

    from tests.kit import audit
    table = make_table(6).start()
    browsers = subscribe_everyone(table, push_service)  # after the first step began: not pushed
    by_path = {b.path: seat for seat, b in browsers.items()}
    rng = random.Random(7)
    first_seen: dict[int, set[int]] = {}  # step seq -> the seats prompted when it was first seen
    for _ in range(60):
        views = table.views()
        host_view = next(iter(views.values()))
        if host_view["status"] != "running":
            break
        first_seen.setdefault(host_view["step"]["seq"], {s for s, v in views.items() if v["prompt"]})
        actors = [(seat, v["prompt"]) for seat, v in views.items() if v["prompt"]]
        if not actors:
            table.finish_step()
            continue
        seat, prompt = rng.choice(actors)
        assert table.seats[seat].act(table.id, **audit.random_move(prompt, rng, abstain=0.0)).status_code == 200
    first = min(first_seen)
    expected: dict[int, int] = {}
    for seq, seats in first_seen.items():
        for seat in seats if seq != first else ():
            expected[seat] = expected.get(seat, 0) + 1
    assert sum(expected.values()) >= 3, first_seen
    push_service.wait_for(sum(expected.values()))
    time.sleep(0.2)  # and no more
    got: dict[int, int] = {}
    for push in push_service.received:
        got[by_path[push["path"]]] = got.get(by_path[push["path"]], 0) + 1
    assert got == expected


def test_a_gone_subscription_is_forgotten(app, make_table, push_service):
    table = make_table(6).start()
    browsers = subscribe_everyone(table, push_service)
    for browser in browsers.values():
        push_service.status_of[browser.path] = 410
    table.finish_step()
    table.host.state(table.id)
    expected = prompted(table)
    assert expected
    push_service.wait_for(len(expected))
    deadline = time.monotonic() + 5
    with app.app_context():
        while time.monotonic() < deadline:
            db.session.rollback()
            left = {s.endpoint for s in db.session.query(PushSubscription)}
            if len(left) == len(browsers) - len(expected):
                break
            time.sleep(0.05)
    assert left == {b.endpoint for seat, b in browsers.items() if seat not in expected}


def test_no_keys_no_push(make_app, push_service, clock):
    app = make_app(PUSH_SERVICES=[push_service.url])
    players = [Player(app, f"P{i}").register() for i in range(6)]
    table_id = players[0].create_table(name="T")
    for p in players[1:]:
        p.join(table_id)
    with app.app_context():  # subscribed when the server had keys
        for i, player in enumerate(players):
            endpoint = Browser(push_service, f"p{i}").subscription()
            db.session.add(PushSubscription(user_id=user_id_of(app, f"P{i}"), endpoint=endpoint["endpoint"],
                                            p256dh=endpoint["keys"]["p256dh"], auth=endpoint["keys"]["auth"],
                                            lang="fr", created_at=0.0))
        db.session.commit()
    assert players[0].post(f"/api/tables/{table_id}/start").status_code == 200
    assert "werewolf.push" not in app.extensions
    time.sleep(0.2)
    assert push_service.received == []


def test_the_push_hook_reads_only_the_engines_prompts(app):
    """step_began asks the engine who may act and whether it offers them something: no step,
    role or action is named in werewolf/push.py."""
    source = open(store.__file__.replace("store.py", "push.py"), encoding="utf-8").read()
    for name in list(engine.STEPS) + list(engine.ROLES):
        assert not re.search(rf'"{name}"', source), name
