"""A past game on a phone: the replay slider played to the end, through a player's eyes too,
the host's shared link, my games and my stats; screenshots at 390x844 and 320x640 in French,
English and Chinese, each audited by axe-core.

The game is played through the API (each player's browser context holds its session): the
test needs a finished game with a few nights, not a person's way through one.
"""
import pytest
from phonekit import PHONE, audit, wait_until

pytestmark = pytest.mark.e2e

SMALL = {**PHONE, "viewport": {"width": 320, "height": 640}}
NAMES = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid"]
STEP_MS = 900  # static/js/games.js: one replay step while playing


class Player:
    def __init__(self, browser, base: str, name: str):
        self.name = name
        self.context = browser.new_context(base_url=base, **PHONE)
        self.api = self.context.request
        self.token = self.api.get("/api/me").json()["csrf_token"]

    def post(self, path, body=None):
        response = self.api.post(path, data=body or {}, headers={"X-CSRFToken": self.token})
        assert response.ok, (self.name, path, response.status, response.text())
        return response.json()


def play_a_finished_game(browser, server) -> tuple[list[Player], int]:
    """Six players; every prompt answered with its first choice until the second day, then
    the host stops the game. Returns the players (the host first) and the game's id."""
    players = []
    for name in NAMES:
        player = Player(browser, server.url, name)
        player.post("/api/auth/register", {"name": name, "password": "Lune pleine 42"})
        player.token = player.api.get("/api/me").json()["csrf_token"]
        players.append(player)
    table = players[0].post("/api/tables", {"name": "Thiercelieux"})["table"]["id"]
    for player in players[1:]:
        player.post(f"/api/tables/{table}/join")
    players[0].post(f"/api/tables/{table}/start")
    for _ in range(60):
        views = [(p, p.api.get(f"/api/tables/{table}/state").json()) for p in players]
        state = views[0][1]
        if state["status"] != "running" or (state["step"] or {}).get("day", 0) >= 2:
            break
        acting = [(p, v["prompt"]) for p, v in views if v["prompt"]]
        if not acting:  # nobody acts in this step (dawn): its time runs out
            seq = state["step"]["seq"]
            wait_until(lambda: (players[0].api.get(f"/api/tables/{table}/state").json()["step"] or {}).get("seq") != seq,
                       state["step"]["seconds_left"] + 5, "the next step")
            continue
        for player, prompt in acting:
            spec = prompt["actions"][0]
            body = {"action": spec["action"], "step": prompt["step"]}
            if "count" in spec:
                body["targets"] = spec["choices"][:spec["count"]]
            elif spec.get("choices"):
                body["target"] = spec["choices"][0]
            player.api.post(f"/api/tables/{table}/act", data=body, headers={"X-CSRFToken": player.token})
    if players[0].api.get(f"/api/tables/{table}/state").json()["status"] == "running":
        players[0].post(f"/api/tables/{table}/end")
    game_id = players[0].api.get("/api/me/games").json()["games"][0]["id"]
    return players, game_id


def watch(page, errors: list, who: str) -> None:
    page.on("console", lambda m: m.type == "error" and errors.append(f"{who} console: {m.text}"))
    page.on("pageerror", lambda e: errors.append(f"{who} page error: {e}"))
    page.on("response", lambda r: r.status >= 400 and errors.append(f"{who}: {r.status} {r.url}"))


def shot(page, folder, name: str, errors: list) -> None:
    lang = page.evaluate("document.documentElement.lang")
    width = page.viewport_size["width"]
    page.screenshot(path=str(folder / f"{name}-{width}-{lang}.png"), full_page=True)
    errors.extend(audit(page, f"{name} {width} {lang}"))


def play_to_the_end(page) -> None:
    """Tap play and wait for the last step, within the time the steps take. The replay's
    box shows before its steps arrive (static/js/games.js): wait for its position first."""
    page.wait_for_selector("#replay-position[data-total]")
    total = int(page.locator("#replay-position").get_attribute("data-total"))
    page.locator("#replay-play").tap()
    page.wait_for_function("() => { const p = document.getElementById('replay-position');"
                           " return p.dataset.at === p.dataset.total; }",
                           timeout=total * STEP_MS + 10_000)
    assert page.locator("#replay-play").get_attribute("aria-pressed") == "false"  # stopped at the end
    assert page.locator("#replay-slider").input_value() == str(total - 1)


def to_the_end_by_the_slider(page) -> None:
    page.wait_for_selector("#replay-position[data-total]")
    last = int(page.locator("#replay-position").get_attribute("data-total")) - 1
    page.locator("#replay-slider").fill(str(last))
    page.wait_for_function("() => { const p = document.getElementById('replay-position');"
                           " return p.dataset.at === p.dataset.total; }")


def test_a_past_game_replayed_on_a_phone(browser, server, screenshots):
    errors: list[str] = []
    players, game_id = play_a_finished_game(browser, server)
    host = players[0]
    page = host.context.new_page()
    watch(page, errors, host.name)

    page.goto(f"/games/{game_id}")
    page.wait_for_selector("#replay-body:not([hidden])")
    page.wait_for_selector("#replay-players li")
    end_title = page.locator("#winner-title").inner_text()
    assert end_title
    play_to_the_end(page)
    # The last step is the end: every card shown, the same winner's words.
    assert page.locator("#replay-phase").inner_text() == end_title
    assert page.locator("#replay-players .tile-role").count() == len(NAMES)
    shot(page, screenshots, "10-replay-end", errors)

    # Through Bruno's eyes: his card from the first step, another player's not.
    page.locator("#replay-seat").select_option(
        value=page.locator("#replay-seat option", has_text="Bruno").get_attribute("value"))
    page.wait_for_function("() => document.getElementById('replay-position').dataset.at === '1'")
    bruno = page.locator("#replay-players li.me")
    assert bruno.locator(".tile-role").count() == 1
    assert page.locator("#replay-players li:not(.me) .tile-role").count() == 0
    page.locator("#replay-slider").fill("2")
    shot(page, screenshots, "11-replay-eyes", errors)
    to_the_end_by_the_slider(page)  # played through once above: here, the slider to its end
    assert page.locator("#replay-phase").inner_text() == end_title

    # The host shares a link; someone without an account opens it: the end and the public replay.
    page.locator("#share-on").tap()
    page.wait_for_selector("#share-link:not([hidden])")
    url = page.locator("#share-url").input_value()
    assert f"/games/{game_id}?key=" in url
    shot(page, screenshots, "12-shared", errors)
    stranger = browser.new_context(**PHONE).new_page()
    watch(stranger, errors, "stranger")
    stranger.goto(url)
    stranger.wait_for_selector("#replay-body:not([hidden])")
    assert stranger.locator("#replay-seat option").count() == 1  # the public view only
    assert stranger.locator("#share").is_hidden()
    to_the_end_by_the_slider(stranger)
    assert stranger.locator("#replay-phase").inner_text() == end_title
    page.locator("#share-off").tap()
    page.wait_for_selector("#share-on:not([hidden])")
    before = len(errors)
    response = stranger.goto(url)
    assert response.status == 404  # revoked
    expected = errors[before:]  # the 404 itself, as the response and as the console says it
    assert expected and all(e.startswith(("stranger: 404", "stranger console: Failed to load")) for e in expected)
    del errors[before:]

    # Every page of mine in three languages, on both phone sizes.
    for device in (PHONE, SMALL):
        for lang in ("fr", "en", "zh"):
            context = browser.new_context(base_url=server.url, storage_state=host.context.storage_state(), **device)
            context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
            view = context.new_page()
            watch(view, errors, f"{lang} {device['viewport']['width']}")
            view.goto(f"/games/{game_id}")
            view.wait_for_selector("#replay-players li")
            view.locator("#replay-slider").fill("3")
            shot(view, screenshots, "20-game", errors)
            view.goto("/account")
            view.wait_for_selector("#game-list li")
            assert view.locator("#game-list li").count() == 1
            shot(view, screenshots, "30-account", errors)
            view.goto("/stats")
            view.wait_for_selector("#stats-board li")
            assert view.locator("#stats-board li").count() == len(NAMES)
            shot(view, screenshots, "40-stats", errors)
            context.close()
    assert not errors, "\n".join(errors)
