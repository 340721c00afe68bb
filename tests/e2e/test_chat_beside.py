"""Talking and choosing together on the phone (issue 35, point 5), a real game on six phones
(French, English, Chinese) played through each phone's own session:

- the Little Girl who opens her eyes sees the wolves' channel at once, their words in it;
- at the vote, the open chat sits in the page under the prompt: the vote's buttons, the
  accusation just written and the first tiles are all on the screen, at 390x844 and 320x640,
  and nothing fixed covers a tile.

Screenshots of each (audited by axe-core). Waits are bounded by the step limits set here."""
import time

import pytest
from phonekit import api, phones_for, start_game, step_limit, wait_until

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid"]
LANG = {"Bruno": "en", "Emma": "en", "Chloé": "zh", "Farid": "zh"}
LIMITS = {"seer": 60, "werewolves": 60, "witch": 60, "dawn": 4, "debate": 120, "vote": 120, "tiebreak": 60}
SETTINGS = {"roles": {"cupid": False, "hunter": False, "little_girl": True}, "captain": False, "limits": LIMITS,
            "options": {"spectators": True, "little_girl_risk": 0}}   # never caught: she keeps her eyes open
ON_SCREEN = """sel => [...document.querySelectorAll(sel)].some((n) => { const r = n.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; })"""
COVERED = """() => [...document.querySelectorAll('#players > li')].some((tile) => {
    const r = tile.getBoundingClientRect();
    if (r.bottom <= 0 || r.top >= innerHeight) return false;
    const x = r.left + r.width / 2, y = Math.max(r.top, 0) + Math.min(r.height, innerHeight - Math.max(r.top, 0)) / 2;
    const hit = document.elementFromPoint(x, y);
    return hit && !tile.contains(hit); })"""


def message_shown(phone, text: str) -> bool:
    return phone.page.evaluate("""t => [...document.querySelectorAll('#messages .text')].some((n) =>
        n.textContent === t && n.getBoundingClientRect().height > 0)""", text)


def test_the_little_girl_sees_what_she_spies_and_the_chat_sits_beside_the_vote(browser, server, screenshots):
    errors: list[str] = []
    phones = phones_for(browser, server, NAMES, LANG, screenshots, errors)
    try:
        table_id, views = start_game(phones, "Bavardages", SETTINGS)
        role = {v["me"]["seat"]: v["me"]["role"] for v in views}
        phone_of = {v["me"]["seat"]: p for p, v in zip(phones, views)}
        seat_of = {r: s for s, r in role.items()}
        wolf, girl = seat_of["werewolf"], seat_of["little_girl"]
        victim = next(s for s, r in role.items() if r == "villager")
        girl_phone, wolf_phone = phone_of[girl], phone_of[wolf]
        spied = accused = False
        howl = "On mange qui ?"
        deadline = time.monotonic() + sum(step_limit(LIMITS, s) for s in LIMITS) * 2 + 60
        while time.monotonic() < deadline:
            views = {s: api(p, "GET", f"/api/tables/{table_id}/state")[1] for s, p in phone_of.items()}
            views = {s: v for s, v in views.items() if v and "me" in v}
            view = views[girl]
            if view["status"] == "ended":
                break
            step = view["step"]["id"]
            if step == "werewolves" and not spied:
                spied = True
                assert api(girl_phone, "POST", f"/api/tables/{table_id}/act",
                           {"action": "little_girl.spy", "step": view["prompt"]["step"]})[0] == 200
                assert api(wolf_phone, "POST", f"/api/tables/{table_id}/chat",
                           {"channel": "werewolves", "text": howl})[0] == 201
                # She sees what she spies: the wolves' channel open, their words on her screen.
                wait_until(lambda: message_shown(girl_phone, howl), step_limit(LIMITS, "werewolves"), "the spied words shown")
                active = girl_phone.page.locator("#chat-tabs button.active").inner_text()
                assert girl_phone.t("channel.werewolves") in active, active
                girl_phone.shot("spying")
                girl_phone.small_shot("spying-320")
            if step == "vote" and not accused:
                accused = True
                accusation = f"C'est {phone_of[wolf].name}, j'en suis sûr·e !"
                speaker = next(s for s in phone_of if s != wolf and views[s]["me"]["alive"])
                assert api(phone_of[speaker], "POST", f"/api/tables/{table_id}/chat",
                           {"channel": "village", "text": accusation})[0] == 201
                quitter = next(s for s in phone_of if s not in (wolf, speaker) and views[s]["me"]["alive"])
                readers = [p for s, p in phone_of.items() if views[s]["me"]["alive"] and s != quitter][:3]
                for phone in readers:
                    phone.page.wait_for_selector("#prompt:not([hidden]) #prompt-buttons button")
                    phone.open_chat()
                    for width, height in ((390, 844), (320, 640)):
                        phone.page.set_viewport_size({"width": width, "height": height})
                        phone.page.evaluate("() => window.scrollTo(0, 0)")
                        wait_until(lambda p=phone: message_shown(p, accusation), step_limit(LIMITS, "vote"), "the accusation")
                        phone.page.locator("#prompt").scroll_into_view_if_needed()
                        assert phone.page.evaluate(ON_SCREEN, "#prompt-buttons button"), (phone.name, width)
                        assert phone.page.evaluate(ON_SCREEN, "#messages .text"), (phone.name, width)
                        assert phone.page.evaluate(ON_SCREEN.replace("r.bottom <= innerHeight", "r.top < innerHeight"),
                                                   "#players > li"), (phone.name, width)
                        assert not phone.page.evaluate(COVERED), (phone.name, width)
                        phone.shot(f"vote-{phone.name}-{width}x{height}")
                    phone.page.set_viewport_size({"width": 390, "height": 844})
                # A player who quits is no longer waited for (« Pas encore voté »).
                quitter_phone = phone_of[quitter]
                quitter_phone.page.once("dialog", lambda dialog: dialog.accept())
                quitter_phone._navigating = True
                quitter_phone.page.locator("#quit-game-btn").tap()
                quitter_phone.page.wait_for_url(lambda url: "/t/" not in url)
                quitter_phone._navigating = False
                for phone in readers:
                    wait_until(lambda p=phone: p.snap()["status"] and quitter_phone.name not in p.snap()["status"],
                               step_limit(LIMITS, "vote"), f"{phone.name} no longer waits for the one who quit")
                    assert phone.page.locator("#spectators-line").is_hidden()   # « Spectateurs : 0 » takes no line
            for seat, phone in phone_of.items():
                if phone.page.url.rstrip("/").endswith(phone.base) or "/t/" not in phone.page.url:
                    continue   # gone (quit)
                prompt = views[seat].get("prompt")
                if not prompt:
                    continue
                spec = prompt["actions"][0]
                actions = {a["action"] for a in prompt["actions"]}
                body = {"step": prompt["step"]}
                if "witch.done" in actions:
                    body["action"] = "witch.done"
                elif "debate.request_vote" in actions:
                    body["action"] = "debate.request_vote"
                elif spec.get("current") is not None or spec["action"].startswith("little_girl"):
                    continue
                elif spec["action"] == "werewolves.designate":
                    body.update(action=spec["action"], target=victim)
                elif spec["action"] == "vote.cast":
                    if not accused:
                        continue
                    others = [c for c in spec.get("choices") or [] if c != wolf]  # the living: not the victim
                    body.update(action=spec["action"], target=wolf if seat != wolf else others[0])
                else:
                    choices = [c for c in spec.get("choices") or [] if c != wolf]
                    body.update(action=spec["action"], target=choices[0] if choices else wolf)
                api(phone, "POST", f"/api/tables/{table_id}/act", body)
            time.sleep(0.3)
        else:
            pytest.fail("the game did not end")
        assert spied and accused
    finally:
        for phone in phones:
            phone.close()
    assert errors == []
