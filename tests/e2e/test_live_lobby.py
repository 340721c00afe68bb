"""A page asks again at once after its held poll answers (static/js/table.js): a change
that follows another closely shows as soon as the server tells it, not after a pause.
Only after an error does the page wait before asking again."""
import json
import re
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


def test_after_a_held_polls_answer_the_page_asks_again_at_once(browser, server, screenshots):
    errors: list[str] = []
    host, guest = (Phone(browser, server.url, name, screenshots, errors) for name in ("Alice", "Bruno"))
    try:
        polls: list[tuple[str, float, str | None]] = []  # ("sent" | "answered", when, Preference-Applied)
        host.page.on("request", lambda r: polls.append(("sent", time.monotonic(), None))
                     if r.url.endswith("/state") else None)
        host.page.on("response", lambda r: polls.append(("answered", time.monotonic(), r.headers.get("preference-applied")))
                     if r.url.endswith("/state") else None)
        host.register()
        host.create_table("Vite")
        guest.register()
        table_id = re.search(r"/api/tables/([^/]+)/state", host.page.evaluate(
            "() => performance.getEntriesByType('resource').map(e => e.name).join(' ')")).group(1)
        # The guest sits down and gets up again, each time as soon as the host's page shows it:
        # changes that follow each other closely, as on a busy table.
        for _ in range(3):
            api(guest, "POST", f"/api/tables/{table_id}/join")
            wait_until(lambda: seats_shown(host) == 2, 10, "the host's page showing the guest seated")
            api(guest, "POST", f"/api/tables/{table_id}/leave")
            wait_until(lambda: seats_shown(host) == 1, 10, "the host's page showing the guest gone", interval=0.05)
        gaps = []
        for i, (kind, at, applied) in enumerate(polls):
            if kind == "answered" and applied:
                after = [when for kind_after, when, _ in polls[i + 1:] if kind_after == "sent"]
                if after:
                    gaps.append(after[0] - at)
        assert len(gaps) >= 5, polls
        assert max(gaps) < 0.5, gaps  # the page's pause was 1.5 s (POLL_MS)
        assert not errors, errors
    finally:
        host.close()
        guest.close()
