"""A phone in a browser: one Playwright context per player, read and tapped like a person would.

A Phone never calls the API and never reads the database: it reads what its page shows
(``snap()``: the narration, the prompt, the tiles, the card, the announcements, the chat)
and taps what a thumb would tap. Words are looked up in the page's own string table
(``<body data-strings>``), so the tests follow the interface's wording, not a copy of it.
"""
import json
import os
import re
import time
from pathlib import Path

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 1,  # the layout is in CSS pixels; 2 painted 4x the pixels (+8 % CPU, bench/NOTEBOOK.md)
    "is_mobile": True,
    "has_touch": True,
    "locale": "fr-FR",
    "user_agent": ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
                   "(KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36"),
}
PASSWORD = "Lune pleine 42"
# A line said to its reader (fr, en) or of a reader's own (zh): never in the end's timeline.
SECOND_PERSON = re.compile(r"\b(?:Tu|tu|ton|ta|tes|You|you|your)\b|你")

SNAP_JS = r"""
() => {
  const $ = (id) => document.getElementById(id);
  const shown = (n) => !!n && !n.closest("[hidden]");
  const tx = (s) => s.replace(/\u00a0/g, " ").trim();  // French non-breaking spaces read as spaces
  const text = (n) => (n && shown(n)) ? tx(n.textContent) : "";
  const out = { url: location.pathname, section: null, night: document.body.classList.contains("night") };
  for (const id of ["join", "lobby", "game"]) if ($(id) && shown($(id))) out.section = id;
  out.banner = text($("banner"));
  if (out.section !== "game") return out;
  out.phase = text($("phase"));
  out.step = text($("step-text"));
  out.status = text($("status-line"));
  const prompt = $("prompt");
  out.prompt = shown(prompt) ? {
    title: text($("prompt-title")), info: text($("prompt-info")), error: text($("prompt-error")),
    buttons: [...$("prompt-buttons").querySelectorAll("button")].map((b) => ({ text: tx(b.textContent), disabled: b.disabled })),
  } : null;
  out.tiles = [...$("players").querySelectorAll(":scope > li")].map((li) => {
    const seatText = text(li.querySelector(".tile-seat"));
    const m = seatText.match(/#(\d+)/);
    return {
      seat: li.dataset.seat ? Number(li.dataset.seat) : (m ? Number(m[1]) : null),
      name: text(li.querySelector(".tile-name")),
      alive: li.classList.contains("alive"),
      choosable: li.classList.contains("choosable"),
      chosen: li.classList.contains("chosen"),
      me: li.classList.contains("me"),
      role: text(li.querySelector(".tile-role")),
      captain: !!li.querySelector(".badge.captain"),
      off: !!li.querySelector(".dot.off"),
      votes: text(li.querySelector(".votes")),
    };
  });
  const moment = $("moment");
  if (shown(moment)) {
    const box = moment.getBoundingClientRect();
    out.moment = { title: text($("moment-title")), text: tx(moment.textContent),
                   onFirstScreen: box.top >= 0 && box.top < innerHeight && box.height > 0 };
  } else out.moment = null;
  out.cardShown = shown($("card-front"));
  out.card = out.cardShown ? { role: text($("card-role")), extra: text($("card-extra")) } : null;
  out.events = [...$("events").querySelectorAll("li")].map((li) => tx(li.textContent));
  out.tabs = [...$("chat-tabs").querySelectorAll("button")].map((b) => ({
    label: tx(b.childNodes[0].textContent), active: b.classList.contains("active") }));
  out.messages = shown($("chat")) ? [...$("messages").querySelectorAll("li")].map((li) => ({
    author: li.querySelector(".author").textContent, text: li.querySelector(".text").textContent })) : [];
  out.canWrite = shown($("chat-form"));
  out.end = shown($("end")) ? { title: text($("winner-title")), seats: text($("winner-seats")),
    timeline: [...$("timeline").querySelectorAll("li")].map((li) => tx(li.textContent)) } : null;
  out.bodyText = tx(document.body.innerText);
  return out;
}
"""


class PageErrors(AssertionError):
    pass


# axe-core, pinned in tests/e2e/package.json (scripts/test installs it with npm ci); loaded
# into the page by the test only, never served by the app.
AXE = Path(__file__).parents[1] / "e2e" / "node_modules" / "axe-core" / "axe.min.js"  # npm ci --prefix tests/e2e
AXE_RUN = r"""
async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) =>
    `${v.id} (${v.impact}): ${v.help} — ` + v.nodes.slice(0, 3).map((n) =>
      n.target.join(" ") + " " + (n.failureSummary || "").split("\n").slice(1, 2).join(" ")).join(" | "));
}
"""


def audit(page, where: str) -> list[str]:
    """The accessibility audit of the screen as it is: serious and critical axe violations."""
    if not AXE.exists():
        return [f"{where}: axe-core is missing at {AXE} (run npm ci --prefix tests/e2e)"]
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text())  # through the DevTools protocol: the page's CSP stays on
    return [f"{where}: {line}" for line in page.evaluate(AXE_RUN)]


# The night/day fade is a veil on body::after (app.css) that lifts off the page.
FADE_OVER = """() => !document.getAnimations().some((a) => a.effect && a.effect.target === document.body
                                                   && a.effect.pseudoElement === "::after")"""


class Phone:
    def __init__(self, browser, base_url: str, name: str, shots: Path, errors: list):
        self.browser, self.base, self.name, self.shots = browser, base_url, name, shots
        self.errors = errors  # shared by every phone of the test: any entry fails it
        self.role = None      # the role id read from my card
        self.memory = {}      # what this player did and learned, from their own screen
        self.done = set()     # (phase, step, what) already done
        self.closed = False
        self._answered = set()
        self.open()

    # ---------------------------------------------------------------- browser plumbing

    def open(self, storage_state=None):
        self.context = self.browser.new_context(base_url=self.base, storage_state=storage_state, **PHONE)
        self.context.set_default_timeout(15_000)
        self.page = self.context.new_page()
        page = self.page
        page.on("console", lambda m: m.type == "error" and self.errors.append(f"{self.name} console: {m.text}"))
        page.on("pageerror", lambda e: self.errors.append(f"{self.name} page error: {e}"))
        page.on("requestfailed", self._request_failed)
        page.on("response", self._response)
        self.closed = False

    def _response(self, response):
        self._answered.add(response.request)
        late = response.status == 409 and "/act" in response.url and response.request.method == "POST"
        if response.status >= 400 and not late:   # acting one poll late happens to players too (issue 35)
            self.errors.append(f"{self.name} HTTP {response.status}: {response.request.method} {response.url}")

    def _request_failed(self, request):
        failure = request.failure or ""
        if "ERR_ABORTED" in failure:
            # Chromium ends a fetch answered with an empty body (a poll's 304) as "aborted"
            # after its response (microsoft/playwright#32752): the page got its answer.
            if request in self._answered:
                self._answered.discard(request)
                return
            # A poll cut short by a reload, a navigation or the phone being closed is no error.
            if self.closed or self._navigating:
                return
        self.errors.append(f"{self.name} request failed: {request.method} {request.url} {failure}")

    _navigating = False

    def goto(self, path: str):
        self._navigating = True
        try:
            self.page.goto(path)
        finally:
            self._navigating = False

    def close(self):
        """The phone goes away (sleeps, loses its network): cookies kept, page gone."""
        state = self.context.storage_state()
        self.closed = True
        self.context.close()
        return state

    def reload(self):
        self._navigating = True
        try:
            self.page.reload()
            self.page.wait_for_selector("#game:not([hidden])")
        finally:
            self._navigating = False

    def strings(self) -> dict:
        if not hasattr(self, "_strings"):
            # French no-break spaces read as spaces, as snap() reads the page (SNAP_JS's tx)
            self._strings = {key: value.replace("\u00a0", " ") if isinstance(value, str) else value for key, value in
                             json.loads(self.page.locator("body").get_attribute("data-strings")).items()}
        return self._strings

    def t(self, key: str, **fields) -> str:
        text = self.strings()[key]
        return re.sub(r"\{(\w+)\}", lambda m: str(fields.get(m.group(1), m.group(0))), text)

    def pattern(self, key: str) -> re.Pattern:
        """A string of the page as a regex whose {fields} are named groups."""
        parts = re.split(r"\{(\w+)\}", self.strings()[key])
        regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
        return re.compile("^" + regex + "$")

    def snap(self) -> dict:
        return self.page.evaluate(SNAP_JS)

    def shot(self, name: str, full_page: bool = False) -> bool:
        """A picture of the screen (and its audit) unless one has this name; True if taken."""
        path = self.shots / f"{name}.png"
        if path.exists():
            return False
        self.shots.mkdir(parents=True, exist_ok=True)  # another run may have cleared the folder
        try:  # let the night/day fade end, so the picture shows the screen as it stays
            self.page.wait_for_function(FADE_OVER, timeout=2500)
        except Exception:
            pass
        self.page.screenshot(path=str(path), full_page=full_page)
        self.errors.extend(audit(self.page, f"{self.name} {name}"))  # every screen the test looks at
        return True

    def small_shot(self, name: str):
        """The same screen on a small phone (320x640), then back to 390x844."""
        self.page.set_viewport_size({"width": 320, "height": 640})
        self.shot(name)
        self.page.set_viewport_size({"width": 390, "height": 844})

    # ---------------------------------------------------------------- accounts and lobby

    def register(self, next_path: str | None = None):
        page = self.page
        if next_path is None:
            self.goto("/register")
        page.fill("input[name=name]", self.name)
        page.fill("input[name=password]", PASSWORD)
        self._navigating = True
        try:
            page.locator("#auth-form button[type=submit]").tap()
            page.wait_for_url(lambda url: "/register" not in url and "/login" not in url)
            page.wait_for_load_state()
        finally:
            self._navigating = False

    def create_table(self, name: str) -> str:
        """From the home page, create a table and wait in its lobby; returns its code."""
        self.page.wait_for_selector("#create-form")
        self.page.fill("#create-form input[name=name]", name)
        self._navigating = True
        self.page.locator("#create-form button[type=submit]").tap()
        self.page.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
        self._navigating = False
        self.page.wait_for_selector("#lobby:not([hidden])")
        return self.page.locator("#share-code").inner_text().strip()

    def join_by_code(self, code: str):
        """From the home page, type a table's code (as a player would, in lower case) and sit."""
        self.page.locator("#code-form input[name=code]").type(code.lower(), delay=30)
        self._navigating = True
        self.page.locator("#code-form button[type=submit]").tap()
        self.page.wait_for_url(re.compile(r"/t/" + code + "$"))
        self._navigating = False
        self.page.wait_for_selector("#lobby:not([hidden])")

    def tap_text(self, scope: str, text: str):
        self.page.locator(scope).get_by_text(text, exact=True).tap()

    # ---------------------------------------------------------------- game reading

    def role_of_name(self, label: str) -> str:
        for key, value in self.strings().items():
            if key.startswith(("role.", "role_a.")) and value == label:
                return key.split(".", 1)[1]
        raise AssertionError(f"unknown role name {label!r}")

    def read_card(self) -> str:
        """Turn my card over, read it, turn it back face down."""
        self.page.locator("#cardface").tap()
        self.page.wait_for_selector("#card-front:not([hidden])")
        label = self.page.locator("#card-role").inner_text().strip()
        self.card_extra = self.page.locator("#card-extra").inner_text().strip()
        self.role = self.role_of_name(label)
        return self.role

    def hide_card(self):
        if self.page.locator("#card-front:not([hidden])").count():
            self.page.locator("#cardface").tap()

    def action_of(self, prompt: dict | None) -> str | None:
        """The prompt's action, recognised by its title in the page's words."""
        if not prompt:
            return None
        for key, value in self.strings().items():
            if key.startswith("prompt.") and value == prompt["title"]:
                return key[7:]
        raise AssertionError(f"{self.name}: unknown prompt {prompt['title']!r}")

    # ---------------------------------------------------------------- tapping

    def tile(self, seat: int):
        return self.page.locator(f"#players > li[data-seat='{seat}']")

    def tap_tiles(self, seats):
        for seat in seats:
            self.tile(seat).locator("button.tile-button").tap()
        self.page.wait_for_function(
            "n => document.querySelectorAll('#players li.chosen').length === n", arg=len(seats))

    def tap_button(self, label: str, exact: bool = True, expect_act: bool = True):
        """Tap a prompt button; wait for the server's answer and the page's next view."""
        button = self.page.locator("#prompt-buttons button").get_by_text(label, exact=exact)
        if expect_act:
            with self.page.expect_response(lambda r: "/act" in r.url and r.request.method == "POST") as act:
                button.tap()
            self.settle(act.value)
        else:
            button.tap()

    def settle(self, answer=None):
        """Wait until the page shows a view from after a write, so the next snap is not
        stale: the one the write's ``answer`` carried (act, chat), else a fresh poll's."""
        try:
            etag = answer.json().get("etag") if answer is not None and answer.ok else None
        except Exception:
            etag = None
        if etag:
            try:
                self.page.wait_for_function("e => document.getElementById('table').dataset.etag === e",
                                            arg=etag, timeout=4000)
                return
            except Exception:
                pass  # a poll under way when the answer came shows its own view
        try:
            with self.page.expect_response(lambda r: "/state" in r.url, timeout=4000):
                pass
        except Exception:
            pass

    def choose(self, seats, confirm_label: str):
        self.tap_tiles(seats)
        self.tap_button(confirm_label)

    def open_chat(self):
        """On a phone the chat is a drawer opened from the top of the screen."""
        if not self.page.locator("#chat").is_visible():
            self.page.locator("#chat-toggle").tap()
            self.page.wait_for_selector("#chat", state="visible")

    def close_chat(self):
        if self.page.locator("#chat-close").is_visible():
            self.page.locator("#chat-close").tap()

    def say(self, text: str):
        """Write in the chat channel that is open to me now, then close the drawer."""
        page = self.page
        self.open_chat()
        page.locator("#chat-input").fill(text)
        with page.expect_response(lambda r: "/chat" in r.url and r.request.method == "POST"):
            page.locator("#chat-form button[type=submit]").tap()
        page.wait_for_function(
            "t => [...document.querySelectorAll('#messages .text')].some((n) => n.textContent === t)", arg=text)
        self.close_chat()

    def open_tab(self, label: str):
        self.open_chat()
        self.page.locator("#chat-tabs button", has_text=label).tap()
        self.page.wait_for_selector(f"#chat-tabs button.active:has-text('{label}')")


def wait_until(predicate, timeout: float, what: str, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


# ---------------------------------------------------------------- the host's settings, shots

def set_role(host, role: str, on: bool):
    box = host.page.locator(f"#settings input[name=role][value={role}]")
    if box.is_checked() != on:
        with host.page.expect_response(lambda r: "/settings" in r.url):
            host.page.locator("#settings label.toggle").filter(has=host.page.locator(f"input[value={role}]")).tap()
    assert box.is_checked() == on


def seat_everyone_by_code(phones: list, table_name: str) -> str:
    """The first phone registers and creates a table, the others register and join it by
    its code; returns when the host sees every seat taken. Returns the code."""
    host = phones[0]
    host.register()
    code = host.create_table(table_name)
    for phone in phones[1:]:
        phone.register()
        phone.join_by_code(code)
    host.page.wait_for_function("n => document.querySelectorAll('#seats > li').length === n", arg=len(phones))
    return code


def open_table(phones, name: str):
    """seat_everyone_by_code, returning the host."""
    seat_everyone_by_code(phones, name)
    return phones[0]


# ---------------------------------------------------------------- a game played by the tests

def api(phone, method: str, path: str, body=None):
    """A move sent with this phone's own session (what its page would send)."""
    if not hasattr(phone, "token"):
        phone.token = phone.context.request.get(phone.base + "/api/me").json()["csrf_token"]
    response = phone.context.request.fetch(phone.base + path, method=method, data=json.dumps(body) if body else None,
                                           headers={"X-CSRFToken": phone.token, "Content-Type": "application/json"})
    return response.status, (response.json() if response.body() else None)


def phones_for(browser, server, names: list, langs: dict, screenshots, errors: list) -> list:
    """A phone per name; a name in ``langs`` reads the pages in that language (its cookie)."""
    phones = []
    for name in names:
        phone = Phone(browser, server.url, name, screenshots, errors)
        if name in langs:
            phone.context.add_cookies([{"name": "lang", "value": langs[name], "url": server.url}])
        phones.append(phone)
    return phones


def start_game(phones, table_name: str, settings: dict) -> tuple[str, list]:
    """Seat every phone by the code, set the table (``settings``: PATCH's body), start, and
    wait for the game on every phone. Returns the table id and each phone's first view."""
    host = phones[0]
    seat_everyone_by_code(phones, table_name)
    table_id = host.page.locator("#table").get_attribute("data-table-id")
    assert api(host, "PATCH", f"/api/tables/{table_id}/settings", settings)[0] == 200
    host.page.locator("#start-btn").tap()
    for phone in phones:
        phone.page.wait_for_selector("#game:not([hidden])")
    return table_id, [api(phone, "GET", f"/api/tables/{table_id}/state")[1] for phone in phones]


def start_and_read_cards(host, phones) -> dict:
    """The host starts; each phone reads its card and learns its seat (``phone.seat``). Returns role id -> phone (one each)."""
    with host.page.expect_response(lambda r: r.url.endswith("/start")):
        host.page.locator("#start-btn").tap()
    for phone in phones:
        phone.page.wait_for_selector("#game:not([hidden])", timeout=15_000)
        phone.read_card()
        phone.hide_card()
        phone.seat = next(tile["seat"] for tile in phone.snap()["tiles"] if tile["me"])
    by_role = {phone.role: phone for phone in phones}
    assert len(by_role) == len(phones), {p.name: p.role for p in phones}
    return by_role


def step_limit(limits: dict, step: str) -> float:
    """A step's limit in real seconds, at the browser tests' time scale (tests/e2e/conftest.py)."""
    return limits[step] * float(os.environ.get("E2E_TIME_SCALE", "0.5"))


def moment_text(phone) -> str:
    """The moment's words when it is on the phone's first screen, else ""."""
    snap = phone.snap()
    return snap["moment"]["text"] if snap["moment"] and snap["moment"]["onFirstScreen"] else ""


# ---------------------------------------------------------------- phones in other languages

class LocalePhone(Phone):
    """A phone whose browser speaks another language (the pages follow Accept-Language)."""

    def __init__(self, *args, locale: str = "fr-FR", **kwargs):
        self.locale = locale
        super().__init__(*args, **kwargs)

    def open(self, storage_state=None):
        self.context = self.browser.new_context(base_url=self.base, storage_state=storage_state,
                                                **{**PHONE, "locale": self.locale})
        self.context.set_default_timeout(15_000)
        self.page = self.context.new_page()
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(f"{self.name} console: {m.text}"))
        self.page.on("pageerror", lambda e: self.errors.append(f"{self.name} page error: {e}"))
        self.page.on("requestfailed", self._request_failed)
        self.page.on("response", self._response)
        self.closed = False


def show_card(phone):
    """Turn my card over (and so show my private events by day too)."""
    if not phone.page.locator("#card-front:not([hidden])").count():
        phone.page.locator("#cardface").tap()
        phone.page.wait_for_selector("#card-front:not([hidden])")


def norm(text: str) -> str:
    return text.replace("\u00a0", " ")


def told(phone, text: str) -> bool:
    return any(norm(text) in norm(e) for e in phone.snap()["events"])


# One table, its phones in several languages (by seat, in turn): every screen the test
# looks at is shot in each language (the same page reloaded with ?lang=), and each phone
# reads and taps in its own. One game instead of the same game once per language.
LOCALES = {"fr": "fr-FR", "en": "en-US", "zh": "zh-TW"}


def in_every_language(phone, name: str, before_shot=None, full_page: bool = False):
    """Shoot this screen at 390x844 and 320x640 in each language of LOCALES, the phone's own
    first; ``before_shot`` puts the screen back after a reload (a card turned over...)."""
    own = phone.locale[:2]
    url = phone.page.url.split("?")[0].replace(phone.base, "")
    for lang in [own] + [code for code in LOCALES if code != own] + [own]:
        if lang != own or phone.page.evaluate("document.documentElement.lang")[:2] != own:
            phone.goto(f"{url}?lang={lang}")
            phone.page.wait_for_function("() => document.querySelectorAll('#players > li, #seats > li').length > 0")
            assert phone.page.evaluate("document.documentElement.lang")[:2] == lang
            if before_shot:
                before_shot()
        shot = name.format(lang=lang)
        if (phone.shots / f"{shot}.png").exists():
            continue  # back in its own language
        phone.shot(shot, full_page=full_page)
        phone.small_shot(shot.replace("-", "b-", 1) + "-320x640")   # 12-fr-x -> 12b-fr-x-320x640
