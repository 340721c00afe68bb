"""The room's screen has words for every public moment (RULES-VARIANTS A9: what a spectator may
see), in French, English and Chinese, on a phone (390x844, 320x640): its stream brings a public
view carrying one event of each kind the room tells (page.route), and each moment is read and
shot. tests/web/test_screen.py checks the same list against the catalog's event kinds."""
import json
import re

import pytest
from phonekit import Phone, audit, wait_until

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid"]
# One event of each public kind, in the order the room shows them (seq 1..n).
EVENTS = [
    {"kind": "game_start", "composition": {}, "players": 6},
    {"kind": "deaths", "moment": "night", "deaths": [{"seat": 6, "role": "werewolf", "cause": "night"},
                                                     {"seat": 5, "role": "seer", "cause": "grief"}]},
    {"kind": "vote_request", "seat": 2, "count": 1},
    {"kind": "ballots", "step": "vote", "round": 1, "ballots": {"1": 3, "2": 3, "3": None, "4": 1}, "captain": 1},
    {"kind": "vote_result", "day": 1, "tally": {"3": 3, "1": 1}, "eliminated": 3, "tied": []},
    {"kind": "hunter_shot", "hunter": 3, "target": 4, "testament": True},
    {"kind": "succession", "previous": 1, "captain": 2, "testament": True},
    {"kind": "election_result", "tally": {"2": 4}, "captain": 2},
    {"kind": "tiebreak", "captain": 2, "target": 4},
    {"kind": "owl_nominee", "day": 2, "target": 4},
    {"kind": "stalemate", "days": 3},
    {"kind": "player_left", "seat": 4},
]
RAW = re.compile(r"\{\w+\}|\b(?:ev|tl|role|step)\.\w+")


def public_view(events: list[dict]) -> dict:
    players = [{"seat": i, "name": name, "alive": i not in (3, 5, 6), "captain": i == 2,
                **({"role": {3: "hunter", 5: "seer", 6: "werewolf"}[i]} if i in (3, 5, 6) else {})}
               for i, name in enumerate(NAMES, 1)]
    return {"version": len(events), "status": "running", "me": None, "players": players, "composition": {},
            "step": {"id": "debate", "seq": 9, "day": 2, "deadline": None, "seconds_left": 90},
            "prompt": None, "votes": {}, "requests": [], "events": [{"seq": n, "at": "2026-12-01T06:00:00Z", **e}
                                                                   for n, e in enumerate(events, 1)],
            "chat": {}, "channels": {"read": ["village"], "write": None, "writable": []}, "winner": None,
            "table": {"status": "running", "settings": {"options": {}}, "url": "", "code": "ABCDEF"}}


def test_the_room_tells_every_public_moment_in_three_languages(browser, server, screenshots):
    errors: list[str] = []
    host = Phone(browser, server.url, "Hôte", screenshots, errors)
    try:
        host.register()
        host.create_table("La salle")
        link = host.page.locator(".screen-row a").first
        wait_until(lambda: link.get_attribute("href"), 10, "the room screen's link")
        url = link.get_attribute("href")
    finally:
        host.context.close()
    for lang, width, height in (("fr", 390, 844), ("en", 320, 640), ("zh", 390, 844), ("zh", 320, 640)):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="fr-FR")
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(f"room page error: {e}"))
        # The first view, polled, is the room's starting point: only later events are moments.
        # They come on the stream the page opens next (its events end there; it reconnects to
        # the same view, which it already shows).
        page.route(re.compile(r".*/api/tables/[^/]+/screen\?.*"), lambda route: route.fulfill(json=public_view([])))
        streamed = f"retry: 1000\n\nid: all\nevent: state\ndata: {json.dumps(public_view(EVENTS))}\n\n"
        page.route(re.compile(r".*/api/tables/[^/]+/screen/events\?.*"),
                   lambda route: route.fulfill(body=streamed, content_type="text/event-stream"))
        page.goto(f"{url}&lang={lang}")
        strings = page.evaluate("() => JSON.parse(document.body.dataset.strings)")
        texts = []
        for n in range(len(EVENTS)):
            page.wait_for_selector("#moment:not([hidden])", timeout=10_000)
            wait_until(lambda: page.locator("#moment-text").inner_text() not in texts[-1:], 5, "the next moment")
            text = page.locator("#moment-text").inner_text()
            texts.append(text)
            page.screenshot(path=str(screenshots / f"{lang}-{width}x{height}-{n + 1:02d}-{EVENTS[n]['kind']}.png"))
            if n == 3:
                errors.extend(audit(page, f"room {lang} {width}x{height} moment"))
            page.locator("#moment").click()
        assert all(text.strip() and not RAW.search(text) for text in texts), texts
        said = " ".join(texts).replace("\u00a0", " ")
        for key, fields in (("ev.hunter_testament", {"hunter": "Chloé", "name": "David"}),
                            ("ev.succession_testament", {"previous": "Alice", "name": "Bruno"}),
                            ("ev.stalemate", {}), ("ev.player_left", {"name": "David"}), ("ev.ballots", {})):
            words = re.sub(r"\{(\w+)\}", lambda m: fields[m.group(1)], strings[key]).replace("\u00a0", " ")
            assert words in said, (lang, key, said)
        assert "Bruno" in texts[3] and "Alice" in texts[3], texts[3]  # who voted for whom, at the count
        context.close()
    assert not errors, errors
