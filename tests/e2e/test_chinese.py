"""A short game in Traditional Chinese: six phones whose browsers ask for zh-TW, and the room's
screen. Every screen they show, from the invitation to the end, is searched for words left
in French or English (a missing translation, or a raw key such as "step.seer")."""
import json
import re
import time

import pytest

pytestmark = pytest.mark.e2e

NAMES = ["阿明", "小華", "美玲", "志豪", "怡君", "家豪"]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1, "is_mobile": True,
         "has_touch": True, "locale": "zh-TW"}
# Latin text that is not a translation to do: the table's code, letters of the QR code, Wi-Fi...
ALLOWED = {"QR", "Wi-Fi", "FR", "EN", "WEREWOLF_PUBLIC_URL"}
LATIN_WORD = re.compile(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ_.\-]+")


def untranslated(text: str, code: str) -> list[str]:
    words = LATIN_WORD.findall(re.sub(r"https?://\S+", "", text.replace(code, "")))
    return [w for w in words if w not in ALLOWED]


class Phone:
    def __init__(self, browser, url: str, name: str):
        self.url, self.name = url, name
        self.context = browser.new_context(base_url=url, **PHONE)
        self.context.set_default_timeout(15_000)
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.token = None

    def api(self, method: str, path: str, body=None):
        """A move sent with this phone's own session, as its page would send it."""
        if self.token is None:
            self.token = self.context.request.get(self.url + "/api/me").json()["csrf_token"]
        response = self.context.request.fetch(self.url + path, method=method,
                                              headers={"X-CSRFToken": self.token, "Content-Type": "application/json"},
                                              data=json.dumps(body) if body is not None else None)
        return response.status, (response.json() if response.body() else None)

    def text(self) -> str:
        return self.page.evaluate("() => document.body.innerText")


def move(view: dict, wolves: set[int]) -> dict | None:
    """A simple, quick strategy from the prompt: the wolves eat a villager, everyone votes a wolf."""
    prompt = view.get("prompt")
    if not prompt:
        return None
    actions = {a["action"]: a for a in prompt["actions"]}
    body = {"step": prompt["step"]}
    if "witch.done" in actions:
        return {**body, "action": "witch.done"}
    if "debate.request_vote" in actions:
        return {**body, "action": "debate.request_vote"}
    spec = prompt["actions"][0]
    if spec.get("current") is not None or spec.get("voted"):
        return None
    choices = spec.get("choices") or []
    me = view["me"]["seat"]
    if spec["action"] == "cupid.pair":
        return {**body, "action": "cupid.pair", "targets": [c for c in choices if c not in wolves][:2]}
    if spec["action"] == "werewolves.designate":
        target = next((c for c in choices if c not in wolves), None)
    elif spec["action"] == "vote.cast":
        target = next((c for c in choices if c in wolves and c != me), None)
    else:
        target = next((c for c in choices if c not in wolves), choices[0] if choices else None)
    return {**body, "action": spec["action"], "target": target}


def test_a_short_game_in_chinese_leaves_nothing_untranslated(browser, server, screenshots):
    phones = [Phone(browser, server.url, name) for name in NAMES]
    host = phones[0]
    host.page.goto("/register")  # no cookie: the page follows Accept-Language (zh-TW)
    assert host.page.locator("html").get_attribute("lang") == "zh-Hant"
    host.page.fill("input[name=name]", host.name)
    host.page.fill("input[name=password]", "Lune pleine 42")
    host.page.locator("#auth-form button[type=submit]").tap()
    host.page.wait_for_url(lambda url: "/register" not in url)
    host.page.fill("#create-form input[name=name]", "測試桌")
    host.page.locator("#create-form button[type=submit]").tap()
    host.page.wait_for_selector("#lobby:not([hidden])")
    code = host.page.locator("#share-code").inner_text().strip()
    link = f"/t/{code}"
    seen: dict[str, str] = {}

    def check(phone: Phone, where: str):
        text = phone.text()
        left = untranslated(text, code)
        assert not left, f"{where} ({phone.name}) shows untranslated words {left}:\n{text}"
        assert phone.page.evaluate("document.documentElement.scrollWidth <= innerWidth"), f"{where}: wider than the phone"
        seen[where] = text

    check(host, "waiting room (host)")
    for phone in phones[1:]:  # by the link: register and sit down in one step
        phone.page.goto(link)
        phone.page.wait_for_selector("#invite")
        check(phone, "invitation")
        phone.page.fill("input[name=name]", phone.name)
        phone.page.fill("input[name=password]", "Lune pleine 42")
        phone.page.locator("#auth-form button[type=submit]").tap()
        phone.page.wait_for_url(re.compile(link + "$"))
        phone.page.wait_for_selector("#lobby:not([hidden])")
    check(phones[-1], "waiting room (guest)")
    screen = Phone(browser, server.url, "screen")
    screen.page.goto(host.page.locator(".screen-row a").first.get_attribute("href"))
    screen.page.locator("#narration:not(:empty)").wait_for()  # no wait_for_function: the CSP forbids eval
    check(screen, "room screen (waiting)")

    host.page.locator("#start-btn").tap()
    for phone in phones:
        phone.page.wait_for_selector("#game:not([hidden])")
    table_id = host.page.locator("#table").get_attribute("data-table-id")
    views = {p.name: p.api("GET", f"/api/tables/{table_id}/state")[1] for p in phones}
    wolves = {v["me"]["seat"] for v in views.values() if v["me"]["role"] == "werewolf"}
    steps = set()
    deadline = time.monotonic() + 200
    while time.monotonic() < deadline:
        views = {p.name: p.api("GET", f"/api/tables/{table_id}/state")[1] for p in phones}
        first = views[host.name]
        if first["status"] == "ended":
            break
        step = first["step"]["id"]
        if step not in steps:  # each new step: every phone's screen, and the room's
            steps.add(step)
            time.sleep(0.5)  # their streams bring the step at once: a margin for a busy machine
            for phone in phones:
                phone.page.locator("#cardface").tap()  # my card and what my role knows
                check(phone, f"step {step}")
                phone.page.locator("#cardface").tap()
            check(screen, f"room screen, step {step}")
        for phone in phones:
            body = move(views[phone.name], wolves)
            if body is not None:
                phone.api("POST", f"/api/tables/{table_id}/act", body)
        time.sleep(0.3)
    else:
        pytest.fail(f"the game did not end; steps seen: {sorted(steps)}")

    for phone in phones + [screen]:
        phone.page.wait_for_selector("#end:not([hidden])")
    # The room screen's last moments (7 s each, shown big) pass; then its end screen.
    for _ in range(20):  # the end's moments, each tapped away as in the room (each would stay 3.5-7 s)
        moment = screen.page.locator("#moment")
        if not moment.is_visible():
            break
        check(screen, "room screen, a moment of the end")
        moment.click()
    screen.page.locator("#moment").wait_for(state="hidden", timeout=10_000)
    for phone in phones:
        check(phone, "the end")
    check(screen, "room screen, the end")
    host.page.screenshot(path=str(screenshots / "zh-end.png"), full_page=True)
    screen.page.screenshot(path=str(screenshots / "zh-screen-end.png"))
    assert {"werewolves", "vote"} <= steps, steps
    assert "村民獲勝！" in seen["the end"] or "狼人獲勝！" in seen["the end"]
    assert not [e for p in phones + [screen] for e in p.errors]
    for phone in phones + [screen]:
        phone.context.close()
