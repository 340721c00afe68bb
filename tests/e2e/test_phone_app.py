"""The phone app (issue 37) in Chromium: installable (the manifest Chromium reads, with no
installability error, and an active service worker controlling the page); with the server
down, a reload shows the kept shell, « Reconnexion… », in the page's language, and the page
comes back by itself once the server answers; the caches hold the shell and never an /api/
answer. "Your turn": the button asks for notifications (never the page on load); a prompt
arriving while the page is hidden shows a notification (with its vibration) and changes the
tab's title, both undone when the page is visible again; a Web Push (delivered through the
DevTools protocol) becomes a notification unless the table's page is in front, and names
only this site's pages. Screens at 390x844 and 320x640 in French, English and Chinese,
audited by axe.

Headless Chromium keeps every page visible (Playwright has no API for it, microsoft/playwright
#2286): the test hides the page the way #1290 describes, by defining document.visibilityState
and firing visibilitychange, from the DevTools protocol (the page's CSP stays on).
"""
import json
import time

import pytest
from phonekit import PHONE, audit, wait_until

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS

pytestmark = pytest.mark.e2e

SMALL = {**PHONE, "viewport": {"width": 320, "height": 640}}
LOCALES = {"fr": "fr-FR", "en": "en-GB", "zh": "zh-TW"}
APP_NAMES = {"fr": "Loups-Garous en ligne", "en": "Werewolves online", "zh": "線上狼人殺"}
NAMES = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid"]

CACHED_URLS = """async () => {
  const urls = [];
  for (const key of await caches.keys()) {
    const cache = await caches.open(key);
    for (const request of await cache.keys()) urls.push(new URL(request.url).pathname + new URL(request.url).search);
  }
  return urls;
}"""
# The worker once active: "activated" (ready resolves while it may still be activating).
WORKER_READY = """() => navigator.serviceWorker.ready.then((r) => r.active.state === "activated" ? r.active.state
  : new Promise((done) => r.active.addEventListener("statechange", () => done(r.active.state))))"""
SET_VISIBILITY = """(state) => {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => state === "hidden" });
  document.dispatchEvent(new Event("visibilitychange"));
}"""
# Counts the page's requests for the permission (an init script: before the page's own).
COUNT_ASKS = """(() => {
  window.asked = 0;
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...args) => { window.asked += 1; return ask(...args); };
})();"""
NOTIFICATIONS = """(tag) => navigator.serviceWorker.ready.then((r) => r.getNotifications({ tag }))
  .then((list) => list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, vibrate: n.vibrate })))"""


def api_player(browser, base: str, name: str, lang: str = "fr", **context):
    """A browser context registered through the API; its request object plays."""
    ctx = browser.new_context(base_url=base, **{**context, "locale": LOCALES[lang]})
    ctx.add_cookies([{"name": "lang", "value": lang, "url": base}])
    response = ctx.request.post("/api/auth/register", data={"name": name, "password": "Lune pleine 42"},
                                headers={"X-CSRFToken": ctx.request.get("/api/me").json()["csrf_token"]})
    assert response.ok, response.text()
    ctx.token = response.json()["csrf_token"]
    return ctx


def post(ctx, path: str, body=None):
    response = ctx.request.post(path, data=body or {}, headers={"X-CSRFToken": ctx.token})
    assert response.ok, (path, response.status, response.text())
    return response.json()


def shot(page, folder, name: str, errors: list):
    lang = page.evaluate("document.documentElement.lang")
    width = page.viewport_size["width"]
    page.screenshot(path=str(folder / f"{name}-{width}-{lang}.png"))
    errors.extend(audit(page, f"{name} {width} {lang}"))


def test_installable_offline_shell_and_no_view_in_the_caches(browser, server, screenshots, tmp_path):
    errors: list[str] = []
    # A profile on disk: Chromium does not install from an off-the-record one.
    ctx = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS, base_url=server.url, **PHONE)
    try:
        ctx.set_default_timeout(15_000)
        token = ctx.request.get("/api/me").json()["csrf_token"]
        assert ctx.request.post("/api/auth/register", data={"name": "Alice", "password": "Lune pleine 42"},
                                headers={"X-CSRFToken": token}).ok
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        page.goto("/")
        assert page.evaluate(WORKER_READY) == "activated"
        page.reload()
        assert page.evaluate("() => !!navigator.serviceWorker.controller")  # the worker serves the page

        cdp = ctx.new_cdp_session(page)
        found = cdp.send("Page.getAppManifest")
        assert found["url"] == server.url + "/manifest/fr.webmanifest" and not found["errors"], found
        manifest = json.loads(found["data"])
        assert manifest["name"] == APP_NAMES["fr"]
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []

        # A table page takes its views from the API a while: none of it is kept.
        me = {"request": ctx.request, "token": ctx.request.get("/api/me").json()["csrf_token"]}
        table = ctx.request.post("/api/tables", data={"name": "Thiercelieux"},
                                 headers={"X-CSRFToken": me["token"]}).json()["table"]
        page.goto(f"/t/{table['code']}")
        page.wait_for_selector("#lobby:not([hidden])")
        page.wait_for_function("() => !!document.getElementById('table').dataset.etag")  # a view shown
        shell = json.loads(ctx.request.get("/sw.js").text().splitlines()[0][len("const SHELL = "):-1])
        kept = page.evaluate(CACHED_URLS)
        assert not [url for url in kept if url.startswith("/api/") or url.startswith("/t/")], kept
        assert set(kept) == set(shell["offline"].values()) | set(shell["assets"]) | {"/offline/language"}, kept

        # The server goes away: a reload shows the kept shell, in French, its CSS and JS on.
        server.stop()
        page.reload()
        page.wait_for_selector("#offline")
        assert page.locator("#offline h1").inner_text() == "Reconnexion…"
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(11, 15, 34)"  # app.css: night
        assert page.url.endswith(f"/t/{table['code']}")  # the address stays: the page comes back there
        shot(page, screenshots, "offline", errors)
        # Back: the page returns by itself (offline.js tries again, 15 s apart at most).
        server.start()
        page.wait_for_selector("#lobby:not([hidden])", timeout=45_000)
    finally:
        ctx.close()
    assert not errors, "\n".join(errors)


def test_the_offline_screen_in_three_languages_at_two_sizes(browser, server, screenshots):
    errors: list[str] = []
    pages = []
    for lang in ("fr", "en", "zh"):
        ctx = api_player(browser, server.url, f"Off{lang}", lang, **PHONE)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        page.goto("/")
        assert page.evaluate(WORKER_READY) == "activated"
        page.goto("/rules")  # a page of this language seen through the worker
        pages.append((lang, ctx, page))
    server.stop()
    try:
        for lang, ctx, page in pages:
            for device in (PHONE, SMALL):
                page.set_viewport_size(device["viewport"])
                page.reload()
                page.wait_for_selector("#offline")
                assert page.evaluate("document.documentElement.lang") == {"zh": "zh-Hant"}.get(lang, lang)
                assert page.locator("#retry-btn").bounding_box()["height"] >= 44
                assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
                shot(page, screenshots, "offline", errors)
            texts = page.locator("#offline").inner_text()
            assert {"fr": "Reconnexion…", "en": "Reconnecting…", "zh": "重新連線中…"}[lang] in texts
    finally:
        server.start()
    for _, ctx, _ in pages:
        ctx.close()
    assert not errors, "\n".join(errors)


def move(view: dict, spared: set[int]) -> dict | None:
    """A quick strategy read off the prompt: every choice falls on someone not ``spared``
    (the wolves, and the player waiting for their turn) where it can."""
    prompt = view.get("prompt")
    if not prompt:
        return None
    actions = {a["action"]: a for a in prompt["actions"]}
    body = {"step": prompt["step"]}
    for done in ("witch.done", "debate.request_vote"):
        if done in actions:
            return {**body, "action": done}
    spec = prompt["actions"][0]
    if spec.get("current") is not None or spec.get("voted"):
        return None
    choices = spec.get("choices") or []
    if spec["action"] == "cupid.pair":
        return {**body, "action": "cupid.pair", "targets": [c for c in choices if c not in spared][:2]}
    target = next((c for c in choices if c not in spared), choices[0] if choices else None)
    return {**body, "action": spec["action"], "target": target}


def test_your_turn_on_a_hidden_page_notifies_and_the_button_asks(browser, server, screenshots):
    errors: list[str] = []
    players = [api_player(browser, server.url, name) for name in NAMES[1:]]
    viewers = {lang: api_player(browser, server.url, f"{NAMES[0]}{lang}", lang, **PHONE) for lang in ("fr", "en", "zh")}
    host = viewers["fr"]
    table = post(host, "/api/tables", {"name": "Thiercelieux"})["table"]
    for ctx in [*players, viewers["en"], viewers["zh"]]:
        post(ctx, f"/api/tables/{table['id']}/join")
    pages = {}
    for lang, ctx in viewers.items():
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        page.add_init_script(COUNT_ASKS)
        page.goto(f"/t/{table['code']}")
        page.wait_for_selector("#lobby:not([hidden])")
        # Nothing asked on load.
        assert page.evaluate("Notification.permission") == "default" and page.evaluate("window.asked") == 0
        button = page.locator("#lobby .notify-btn")
        assert button.is_visible() and button.bounding_box()["height"] >= 44
        for device in (PHONE, SMALL):
            page.set_viewport_size(device["viewport"])
            button.scroll_into_view_if_needed()
            shot(page, screenshots, "notify-button", errors)
        pages[lang] = page

    # The French player says yes (the browser's answer granted by the test), from the button.
    page = pages["fr"]
    page.set_viewport_size(PHONE["viewport"])
    host.grant_permissions(["notifications"], origin=server.url)
    page.locator("#lobby .notify-btn").tap()
    page.wait_for_selector("#lobby .notify-on:not([hidden])")
    assert page.evaluate("window.asked") == 1  # once, from the button
    assert page.locator("#lobby .notify-btn").is_hidden()
    shot(page, screenshots, "notify-granted", errors)
    base_title = page.title()

    # The page goes to the background, the game starts: a prompt for me arrives while hidden.
    page.evaluate(SET_VISIBILITY, "hidden")
    post(host, f"/api/tables/{table['id']}/start")
    everyone = [host, viewers["en"], viewers["zh"], *players]
    views = {}
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        views = {id(c): c.request.get(f"/api/tables/{table['id']}/state").json() for c in everyone}
        mine = views[id(host)]
        assert mine["status"] == "running", mine["status"]
        if mine["prompt"]:
            break
        spared = {v["me"]["seat"] for v in views.values() if v["me"]["role"] == "werewolf"} | {mine["me"]["seat"]}
        for ctx in everyone[1:]:  # the others play (the French player waits for their turn, alive)
            body = move(views[id(ctx)], spared)
            if body is not None:
                ctx.request.post(f"/api/tables/{table['id']}/act", data=body, headers={"X-CSRFToken": ctx.token})
        time.sleep(0.3)
    else:
        pytest.fail("no prompt for the French player")
    tag = f"turn-{table['id']}"
    shown = wait_until(lambda: page.evaluate(NOTIFICATIONS, tag), WORKER_SECONDS, "the notification")
    assert shown == [{"title": "À toi de jouer", "body": "Thiercelieux", "tag": tag, "vibrate": [200, 100, 200]}]
    assert page.title() == "🔔 À toi de jouer · " + base_title
    # Back on the page: the notification goes, the title comes back; the prompt is on screen.
    page.evaluate(SET_VISIBILITY, "visible")
    wait_until(lambda: not page.evaluate(NOTIFICATIONS, tag), 5, "the notification closed")
    assert page.title() == base_title
    assert page.locator("#prompt").is_visible()
    for ctx in everyone:
        ctx.close()
    assert not errors, "\n".join(errors)


# A service worker wakes, handles a push and shows it in well under a second on a quiet phone;
# on a slow, busy machine (beside other tests) it took over 10 s: a limit, not a wait.
WORKER_SECONDS = 60


def test_a_push_becomes_a_notification_unless_the_tables_page_is_in_front(browser, server):
    """static/js/sw.js's push handler, fed a push through the DevTools protocol
    (ServiceWorker.deliverPushMessage) as the push service would bring it."""
    errors: list[str] = []
    ctx = api_player(browser, server.url, "Alice", "en", **PHONE)
    ctx.grant_permissions(["notifications"], origin=server.url)
    table = post(ctx, "/api/tables", {"name": "Thiercelieux"})["table"]
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    registrations = []
    cdp = ctx.new_cdp_session(page)
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    page.goto(f"/t/{table['code']}")
    assert page.evaluate(WORKER_READY) == "activated"
    wait_until(lambda: page.evaluate("1") and registrations, WORKER_SECONDS, "the worker's registration")
    registration = registrations[-1]["registrationId"]
    tag = f"turn-{table['id']}"
    push = {"title": "Your turn", "url": f"/t/{table['code']}", "tag": tag}

    def deliver(data: dict):
        cdp.send("ServiceWorker.deliverPushMessage",
                 {"origin": server.url, "registrationId": registration, "data": json.dumps(data)})

    deliver({**push, "tag": "turn-front"})  # the table's page is in front: it shows the prompt itself
    page.goto("/rules")  # elsewhere on the site: the push is told
    deliver(push)
    wait_until(lambda: page.evaluate(NOTIFICATIONS, tag), WORKER_SECONDS, "the notification")
    assert page.evaluate(NOTIFICATIONS, "turn-front") == []  # handled before the second one: none shown
    [shown] = page.evaluate(NOTIFICATIONS, tag)
    assert shown == {"title": "Your turn", "body": "", "tag": tag, "vibrate": [200, 100, 200]}
    # A push naming another site's page is brought back to this site's lobby, never followed.
    other = {"title": "Your turn", "url": "https://evil.example/phish", "tag": "turn-x"}
    deliver(other)
    wait_until(lambda: page.evaluate(NOTIFICATIONS, "turn-x"), WORKER_SECONDS, "the other notification")
    data = page.evaluate("""() => navigator.serviceWorker.ready.then((r) => r.getNotifications({ tag: "turn-x" }))
                            .then((list) => list[0].data)""")
    assert data == {"url": "/"}
    ctx.close()
    assert not errors, "\n".join(errors)
