"""Every screen of a game at 390x844 and 320x640, in French and English, audited by axe-core.

The game is played through the API (each player's browser context holds its session), so
the test reaches each moment quickly and on purpose: a death at dawn (mine on one phone),
the Captain's election, the vote's result, the recaps, the chat drawer, my card, the end
screen of a game the host stopped, the rules page; then a table of 18 on the small phone.
"""

import pytest
from phonekit import FADE_OVER, PHONE, audit, wait_until

pytestmark = pytest.mark.e2e

SMALL = {**PHONE, "viewport": {"width": 320, "height": 640}}
LAPTOP = {"viewport": {"width": 1280, "height": 800}, "locale": "fr-FR"}


class Player:
    def __init__(self, browser, base: str, name: str, device: dict, lang: str):
        self.name = name
        self.context = browser.new_context(base_url=base, **device)
        self.context.add_cookies([{"name": "lang", "value": lang, "url": base}])
        self.api = self.context.request
        self.token = self.api.get("/api/me").json()["csrf_token"]
        self.page = None

    def post(self, path, body=None):
        response = self.api.post(path, data=body or {}, headers={"X-CSRFToken": self.token})
        assert response.ok, (self.name, path, response.status, response.text())
        return response.json()

    def state(self, table_id):
        return self.api.get(f"/api/tables/{table_id}/state").json()

    def act(self, table_id, action, **body):
        return self.post(f"/api/tables/{table_id}/act", {"action": action, **body})


def seat(browser, server, n: int, viewers: dict) -> tuple[list[Player], str, str]:
    """n players registered and seated; players named in ``viewers`` get their device and language."""
    players = []
    for i in range(n):
        name = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid", "Gaëlle", "Hugo", "Inès",
                "Jules", "Karim", "Léa", "Malo", "Nora", "Oscar", "Paula", "Quentin", "Rose"][i]
        device, lang = viewers.get(i, (PHONE, "fr"))
        player = Player(browser, server.url, name, device, lang)
        player.post("/api/auth/register", {"name": name, "password": "Lune pleine 42"})
        player.token = player.api.get("/api/me").json()["csrf_token"]
        players.append(player)
    table = players[0].post("/api/tables", {"name": "Thiercelieux"})["table"]
    for player in players[1:]:
        player.post(f"/api/tables/{table['id']}/join")
    players[0].post(f"/api/tables/{table['id']}/start")
    return players, table["id"], table["code"]


class Screens:
    def __init__(self, shots, errors):
        self.shots, self.errors = shots, errors

    def open(self, player, code):
        player.page = player.context.new_page()
        player.page.on("pageerror", lambda e: self.errors.append(f"{player.name} page error: {e}"))
        player.page.goto(f"/t/{code}")
        player.page.wait_for_selector("#game:not([hidden])")

    def shot(self, player, name, full_page=False):
        page = player.page
        try:
            page.wait_for_function(FADE_OVER, timeout=2500)
        except Exception:
            pass
        lang = page.evaluate("document.documentElement.lang")
        width = page.viewport_size["width"]
        page.screenshot(path=str(self.shots / f"{name}-{width}-{lang}.png"), full_page=full_page)
        self.errors.extend(audit(page, f"{player.name} {name}"))


def test_every_screen_at_two_sizes_in_two_languages(browser, server, screenshots):
    errors: list[str] = []
    screens = Screens(screenshots, errors)
    players, table_id, code = seat(browser, server, 8, {0: (PHONE, "fr"), 1: (SMALL, "en"), 2: (LAPTOP, "fr")})
    views = {p.state(table_id)["me"]["seat"]: p for p in players}
    roles = {seat: p.state(table_id)["me"]["role"] for seat, p in views.items()}
    by_role = lambda role: [s for s, r in roles.items() if r == role]  # noqa: E731
    seat_of = {p.name: s for s, p in views.items()}
    fr, en, laptop = players[0], players[1], players[2]
    for viewer in (fr, en, laptop):
        screens.open(viewer, code)
        screens.shot(viewer, "10-night")

    # Night 1: Cupid, the Seer, the wolves on the English phone's player, the Witch lets it be.
    others = [s for s in views if s not in (seat_of[fr.name], seat_of[en.name])]
    wolves = by_role("werewolf")
    victim = seat_of[en.name] if roles[seat_of[en.name]] != "werewolf" \
        else next(s for s in others if roles[s] != "werewolf")
    step = lambda: fr.state(table_id)["step"]["id"]  # noqa: E731
    if step() == "cupid":  # not wolves: were both wolves in love, the Hunter's shot would end the game
        lovers = [s for s in others if s != victim and roles[s] != "werewolf"][-2:]
        views[by_role("cupid")[0]].act(table_id, "cupid.pair", targets=lovers)
    if step() == "seer":
        views[by_role("seer")[0]].act(table_id, "seer.look", target=wolves[0])
    for wolf in wolves:
        views[wolf].act(table_id, "werewolves.designate", target=victim)
    if step() == "witch":
        views[by_role("witch")[0]].act(table_id, "witch.done")
    for viewer in (fr, en):
        viewer.page.wait_for_selector("#moment:not([hidden])")
        moment = viewer.page.locator("#moment").inner_text()
        assert views[victim].name in moment, moment
        screens.shot(viewer, "20-dawn-moment")

    # Day 1: the election makes the French phone's player Captain, then the vote.
    wait_until(lambda: step() in ("election", "hunter"), 30, "the election")
    if step() == "hunter":
        views[by_role("hunter")[0]].act(table_id, "hunter.shoot", target=wolves[-1])
        wait_until(lambda: step() == "election", 30, "the election")
    living = [s for s in views if fr.state(table_id)["players"][s - 1]["alive"]]
    for s in living[:-1]:
        views[s].act(table_id, "election.vote", target=seat_of[fr.name])
    screens.shot(fr, "30-election-not-voted")
    views[living[-1]].act(table_id, "election.vote", target=seat_of[fr.name])
    wait_until(lambda: step() == "debate", 10, "the debate")
    for viewer in (fr, en):
        viewer.page.wait_for_selector("#moment:not([hidden])")
        screens.shot(viewer, "31-captain-moment")
    # My card, the chat drawer.
    for viewer in (fr, en):
        viewer.page.locator("#cardface").tap()
        viewer.page.wait_for_selector("#card-front:not([hidden])")
        screens.shot(viewer, "40-card")
        viewer.page.locator("#cardface").tap()
        if viewer.page.locator("#chat-toggle").is_visible():
            viewer.page.locator("#chat-toggle").tap()
            viewer.page.wait_for_selector("#chat", state="visible")
            screens.shot(viewer, "41-chat-drawer")
            viewer.page.locator("#chat-close").tap()

    for s in living:
        if step() == "debate":
            views[s].act(table_id, "debate.request_vote")
    assert step() == "vote"
    # A werewolf other than the French viewer if there is one (the deal may make him the only one).
    target = next((s for s in living if s != seat_of[fr.name] and roles[s] == "werewolf"), living[-1])
    for s in living[:3]:
        views[s].act(table_id, "vote.cast", target=target)
    fr.page.wait_for_function("() => document.querySelectorAll('#players .chip').length >= 3")
    screens.shot(fr, "32-vote-chips")
    for s in living[3:]:
        if step() == "vote":
            views[s].act(table_id, "vote.cast", target=target)
    eliminated = views[target].name
    for viewer in (fr, en):
        try:
            viewer.page.wait_for_function(
                "n => !document.getElementById('moment').hidden && "
                "document.getElementById('moment').textContent.includes(n)", arg=eliminated)
        except Exception:
            raise AssertionError((eliminated, viewer.page.locator("#game").inner_text()[:800]))
        screens.shot(viewer, "33-vote-moment")
    screens.shot(laptop, "33-vote-moment")
    # The recap of the vote: who voted for whom.
    fr.page.locator("#recap-ballot").tap()
    fr.page.wait_for_selector("#recap-panel:not([hidden])")
    panel = fr.page.locator("#recap-panel").inner_text()
    assert eliminated in panel and views[living[0]].name in panel, panel
    fr.page.locator("#recap-panel").scroll_into_view_if_needed()
    screens.shot(fr, "34-recap-vote")
    fr.page.locator("#recap-ballot").tap()
    # The host stops the game: the end screen says so, winners and "new game" first.
    if fr.state(table_id)["status"] == "running":
        fr.post(f"/api/tables/{table_id}/end")
    for viewer in (fr, en):
        viewer.page.wait_for_selector("#end:not([hidden])")
        viewer.page.evaluate("window.scrollTo(0, 0)")
        title = viewer.page.locator("#winner-title").inner_text()
        assert title, "no end title"
        box = viewer.page.locator("#end").bounding_box()
        assert box["y"] < viewer.page.viewport_size["height"], "the end is below the fold"
        screens.shot(viewer, "50-end")
        screens.shot(viewer, "51-end-full", full_page=True)
    laptop.page.wait_for_selector("#end:not([hidden])")
    screens.shot(laptop, "50-end")

    # The rules, from the table's link.
    for viewer in (fr, en):
        viewer.page.goto("/rules#role-witch")
        screens.shot(viewer, "60-rules")
        viewer.page.goto("/")
        screens.shot(viewer, "61-lobby")
    assert not errors, "\n".join(errors)


def test_eighteen_players_on_a_small_phone(browser, server, screenshots):
    errors: list[str] = []
    screens = Screens(screenshots, errors)
    players, table_id, code = seat(browser, server, 18, {0: (SMALL, "fr"), 1: (PHONE, "en")})
    for viewer in players[:2]:
        screens.open(viewer, code)
        screens.shot(viewer, "10-night-18")
        rows = viewer.page.evaluate(
            "() => new Set([...document.querySelectorAll('#players > li')].map((li) => li.offsetTop)).size")
        assert rows <= 5, rows  # four tiles a row: 18 players fit on a few rows
    # The countdown's arc is drawn within its dial (a rule of another page's once turned it out).
    for viewer in players[:2]:
        arc, dial = (viewer.page.locator(selector).bounding_box() for selector in ("#ring", "#countdown"))
        assert dial["x"] <= arc["x"] and arc["x"] + arc["width"] <= dial["x"] + dial["width"] \
            and dial["y"] <= arc["y"] and arc["y"] + arc["height"] <= dial["y"] + dial["height"], (arc, dial)
    assert not errors, "\n".join(errors)
