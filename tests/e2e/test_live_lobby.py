"""A page receives its views on one stream as they happen (static/js/table.js, GET
/api/tables/<id>/events; the room's screen, static/js/screen.js, GET
/api/tables/<id>/screen/events): a change that follows another closely shows as soon as the
server tells it, and the page sends no request to learn it."""
import json
import time

import pytest
from phonekit import Phone, wait_until

pytestmark = pytest.mark.e2e


def api(phone, method: str, path: str):
    """A request sent with this phone's own session (what its page would send)."""
    if not hasattr(phone, "token"):
        phone.token = phone.context.request.get(phone.base + "/api/me").json()["csrf_token"]
    response = phone.context.request.fetch(phone.base + path, method=method, data=json.dumps({}),
                                           headers={"X-CSRFToken": phone.token, "Content-Type": "application/json"})
    assert response.ok, (path, response.status, response.text())


def seats_shown(phone) -> int:
    return phone.page.evaluate("() => document.querySelectorAll('#seats > li').length")


def test_the_page_shows_each_change_from_its_one_stream_without_asking(browser, server, screenshots):
    errors: list[str] = []
    host, guest = (Phone(browser, server.url, name, screenshots, errors) for name in ("Alice", "Bruno"))
    try:
        asked: list[str] = []  # the host page's requests for its view: streams and polls
        host.page.on("request", lambda r: asked.append(r.url.rsplit("/", 1)[-1])
                     if r.url.endswith(("/state", "/events")) else None)
        host.register()
        host.create_table("Vite")
        guest.register()
        table_id = host.page.locator("#table").get_attribute("data-table-id")
        # The room's screen too (static/js/screen.js): its first view polled, then one stream.
        link = host.page.locator(".screen-row a").first
        wait_until(lambda: link.get_attribute("href"), 10, "the room screen's link")
        screen = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        screen_asked: list[str] = []
        screen.on("request", lambda r: screen_asked.append(r.url.split("?")[0].rsplit("/", 1)[-1])
                  if "/api/tables/" in r.url else None)
        screen.goto(link.get_attribute("href"))
        tiles = lambda: screen.evaluate("() => document.querySelectorAll('#tiles > li').length")  # noqa: E731
        wait_until(lambda: tiles() == 1, 10, "the room's screen showing the host")
        # The guest sits down and gets up again, each time as soon as the host's page shows it:
        # changes that follow each other closely, as on a busy table.
        started = time.monotonic()
        for _ in range(3):
            api(guest, "POST", f"/api/tables/{table_id}/join")
            wait_until(lambda: seats_shown(host) == 2, 10, "the host's page showing the guest seated", interval=0.05)
            wait_until(lambda: tiles() == 2, 10, "the room's screen showing the guest seated", interval=0.05)
            api(guest, "POST", f"/api/tables/{table_id}/leave")
            wait_until(lambda: seats_shown(host) == 1, 10, "the host's page showing the guest gone", interval=0.05)
            wait_until(lambda: tiles() == 1, 10, "the room's screen showing the guest gone", interval=0.05)
        took = time.monotonic() - started
        assert screen_asked == ["screen", "events"], screen_asked
        screen.context.close()
        # One stream; no poll but the page's presence every 10 s (polled, each change cost a request).
        assert asked[0] == "events" and asked.count("events") == 1 and asked.count("state") <= took / 10 + 1, asked
        assert took < 6 * 1.5, took  # six changes shown, sooner each than the page's old pause (POLL_MS)
        assert not errors, errors
    finally:
        host.close()
        guest.close()
