"""Secrets on the card, and the end that shows the middle (issue 35, points 7 and 4), on six
phones (French, English, Chinese), each playing through its own page and session.

- Cupid pairs two players and the Seer looks at the wolf by tapping tiles and « Valider »:
  each phone then says « C'est envoyé » (a wolf's designation too, whose prompt stays open).
  The answer and the pair are not in the moment at the top of the phone: the card button
  says it has something new, and turning the card over shows them on its face.
- At dawn the night's two dead fill the moment; at 320x640 it stays compact: the living
  players' tiles start on the first screen. In French its colons hold by no-break spaces.
- The room's screen (1280x720, fr/en/zh) recalls by day last night's dead with their cards,
  then the day's vote and its ballots, each beside its drawing.
- The host stops the game: the end's timeline, read on three phones of different cards, is
  in the third person. Then a new game with the Thief, stopped at once: the two cards left
  in the middle are shown at the end on three phones, one per language.

Screenshots at 390x844 and 320x640 (audited by axe-core as every Phone.shot takes them).
Waits are on what the pages show, bounded by the step limits set here."""
import time

import pytest
from phonekit import (
    SECOND_PERSON,
    api,
    audit,
    moment_text,
    phones_for,
    set_role,
    start_game,
    step_limit,
    wait_until,
)

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid"]
LANG = {"Bruno": "en", "Emma": "en", "Chloé": "zh", "Farid": "zh"}
# Night steps long enough to tap through on a busy machine; they end when acted on. The
# Hunter's shot lasts while the room's screen is read in three languages.
LIMITS = {"thief": 60, "cupid": 60, "seer": 60, "werewolves": 60, "witch": 60, "dawn": 4, "hunter": 120,
          "election": 120, "debate": 120, "vote": 120, "tiebreak": 60, "succession": 60}


def prompt_title(phone) -> str:
    return (phone.snap()["prompt"] or {}).get("title", "")


def sent_shown(phone) -> bool:
    return phone.page.locator("#sent-line").is_visible()


def card_face(phone) -> str:
    """Turn my card over, read what its face tells besides my role, turn it back."""
    phone.page.locator("#cardface").tap()
    phone.page.wait_for_selector("#card-front:not([hidden])")
    extra = phone.page.locator("#card-extra").inner_text().replace("\u00a0", " ")
    return extra


def stop_game(host, readers):
    host.page.once("dialog", lambda dialog: dialog.accept())
    host.page.locator("#end-game-btn").tap()
    for phone in readers:
        phone.page.wait_for_selector("#end:not([hidden])")


def test_secrets_on_the_card_sent_said_and_the_middle_at_the_end(browser, server, screenshots):
    errors: list[str] = []
    phones = phones_for(browser, server, NAMES, LANG, screenshots, errors)
    try:
        host = phones[0]
        table_id, first_views = start_game(phones, "Les secrets", {"limits": LIMITS})
        views = {p.name: view for p, view in zip(phones, first_views)}
        seat_of = {v["me"]["seat"]: p for p, v in zip(phones, views.values())}
        role = {v["me"]["seat"]: v["me"]["role"] for v in views.values()}
        by_role = {r: s for s, r in role.items()}   # six seats, six different cards, none in the middle
        names = {s: p.name for s, p in seat_of.items()}
        wolf, villager, witch = by_role["werewolf"], by_role["villager"], by_role["witch"]
        cupid, seer = seat_of[by_role["cupid"]], seat_of[by_role["seer"]]
        night_wait = step_limit(LIMITS, "cupid") + 15

        # --- Cupid pairs the Villager and the Witch, by taps; « C'est envoyé », the pair on his card.
        wait_until(lambda: prompt_title(cupid) == cupid.t("prompt.cupid.pair"), night_wait, "Cupid's prompt")
        lovers = sorted([villager, witch])
        cupid.choose(lovers, cupid.t("btn.confirm"))
        wait_until(lambda: sent_shown(cupid), 10, "« C'est envoyé » on Cupid's phone")
        pair = cupid.t("ev.cupid_pair", a=names[lovers[0]], b=names[lovers[1]])
        assert pair not in moment_text(cupid)
        cupid.page.wait_for_selector("#cardface.news")
        cupid.shot("cupid-sent")
        assert pair in card_face(cupid)
        cupid.shot("cupid-card-face")
        cupid.small_shot("cupid-card-face-320")
        cupid.hide_card()
        assert not cupid.page.locator("#cardface.news").count()   # seen: nothing new any more

        # --- the Seer looks at the wolf; her answer is on her card's face, not at the top of her phone.
        wait_until(lambda: prompt_title(seer) == seer.t("prompt.seer.look"), night_wait, "the Seer's prompt")
        seer.choose([wolf], seer.t("btn.confirm"))
        wait_until(lambda: sent_shown(seer), 10, "« C'est envoyé » on the Seer's phone")
        answer = seer.t("ev.seer_look", name=names[wolf], role=seer.t("role_a.werewolf"))
        wolf_phone = seat_of[wolf]
        wait_until(lambda: prompt_title(wolf_phone) == wolf_phone.t("prompt.werewolves.designate"), night_wait,
                   "the wolves' prompt")
        seer.page.wait_for_selector("#cardface.news")
        assert seer.snap()["card"] is None and answer not in moment_text(seer).replace("\u00a0", " ")
        seer.shot("seer-sent-card-down")
        seer.small_shot("seer-sent-card-down-320")
        assert answer.replace("\u00a0", " ") in card_face(seer)
        seer.shot("seer-card-face")
        seer.small_shot("seer-card-face-320")
        seer.hide_card()
        seer.reload()   # what she saw on her card stays seen
        seer.page.wait_for_selector("#cardface:not(.news)")
        assert seer.page.locator("#card-news").is_hidden()

        # --- the wolf designates by taps: his prompt stays open, and says it went out.
        wolf_phone.choose([villager], wolf_phone.t("btn.confirm"))
        wait_until(lambda: sent_shown(wolf_phone), 10, "« C'est envoyé » on the wolf's phone")
        wolf_phone.shot("wolf-sent")
        witch_phone = seat_of[witch]
        wait_until(lambda: (api(witch_phone, "GET", f"/api/tables/{table_id}/state")[1]["prompt"] or {}).get("step"),
                   night_wait, "the Witch's prompt")
        step = api(witch_phone, "GET", f"/api/tables/{table_id}/state")[1]["prompt"]["step"]
        assert api(witch_phone, "POST", f"/api/tables/{table_id}/act", {"step": step, "action": "witch.done"})[0] == 200

        # --- day 1: the two dead in a moment that leaves the tiles on a small phone's first screen.
        others = [p for p in phones if p.name not in (names[villager], names[witch])]
        small = next(p for p in others if p not in (host,))
        wait_until(lambda: names[villager] in moment_text(small) and names[witch] in moment_text(small),
                   step_limit(LIMITS, "witch") + step_limit(LIMITS, "dawn") + 20, "the night's dead at dawn")
        assert not sent_shown(small)   # the night's « C'est envoyé » is old news by day
        # French typography on the phone (point 9): « rejoint les morts : », its colon held by a no-break space.
        wait_until(lambda: names[witch] in moment_text(host), 10, "the host's moment")
        raw = host.page.locator("#moment").inner_text()
        assert "\u00a0:" in raw and " :" not in raw, raw
        for phone in others[:3]:
            phone.page.set_viewport_size({"width": 320, "height": 640})
            wait_until(lambda p=phone: names[witch] in moment_text(p), 10, f"{phone.name}'s moment")
            # Measured in one go: each view received draws the tiles anew, and a tile found then
            # measured may be gone in between.
            moment_height, first_tile_y = phone.page.evaluate("""() => [
                document.getElementById("moment").getBoundingClientRect().height,
                document.querySelector("#players > li").getBoundingClientRect().y]""")
            assert moment_height <= 640 * 0.4, moment_height
            assert first_tile_y < 640, first_tile_y   # the table starts on the first screen
            phone.shot(f"day-moment-{phone.name}-320")
            phone.page.set_viewport_size({"width": 390, "height": 844})

        # --- the room's screen by day: last night's dead with their cards, then the day's vote.
        screen_url = host.page.locator(".screen-row a").first.get_attribute("href")
        room = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR")
        tv = room.new_page()
        tv.on("pageerror", lambda e: errors.append(f"room page error: {e}"))
        tv.goto(screen_url)
        tv.wait_for_selector("#recall-lastnight:not([hidden])")
        recalled = tv.locator("#recall-lastnight").inner_text()
        for seat in (villager, witch):
            assert names[seat] in recalled and host.t("role_a." + role[seat]) in recalled.replace("\u00a0", " "), recalled
        assert tv.locator("#recall-ballot").is_hidden()   # no vote yet
        tv.screenshot(path=str(screenshots / "room-day1-lastnight-fr.png"))
        errors.extend(audit(tv, "room day 1"))
        tv.locator("#speak").click()   # the narration on: each moment of the vote chimes, then is spoken
        assert tv.locator("#speak").get_attribute("aria-pressed") == "true"
        # Day 1 played through each phone's session: Cupid elected, the Hunter voted out.
        hunter = by_role["hunter"]
        deadline = time.monotonic() + sum(step_limit(LIMITS, s) for s in ("election", "debate", "vote")) + 30
        while time.monotonic() < deadline:
            view = api(host, "GET", f"/api/tables/{table_id}/state")[1]
            if view["step"]["id"] not in ("dawn", "election", "debate", "vote"):
                break
            for phone in phones:
                prompt = api(phone, "GET", f"/api/tables/{table_id}/state")[1]["prompt"]
                spec = (prompt or {"actions": [{}]})["actions"][0]
                if not prompt or spec.get("current") is not None:
                    continue
                target = {"election.vote": by_role["cupid"], "vote.cast": hunter}.get(spec["action"])
                if spec["action"] == "debate.request_vote":
                    api(phone, "POST", f"/api/tables/{table_id}/act", {"step": prompt["step"], "action": spec["action"]})
                elif target is not None:
                    target = target if target in spec.get("choices", []) else wolf
                    api(phone, "POST", f"/api/tables/{table_id}/act",
                        {"step": prompt["step"], "action": spec["action"], "target": target})
            time.sleep(0.3)
        tv.wait_for_selector("#recall-ballot:not([hidden])", timeout=15_000)
        wait_until(lambda: names[hunter] in tv.locator("#recall-ballot-result").inner_text(), 10, "the vote's result")
        ballots = tv.locator("#recall-ballot-lines").inner_text()
        assert names[by_role["cupid"]] in ballots and names[wolf] in ballots, ballots
        assert tv.locator("#recall-lastnight").is_visible()   # the night's dead stay beside the vote
        for lang_code in ("fr", "en", "zh"):
            tv.goto(f"{screen_url}&lang={lang_code}")
            tv.wait_for_selector("#recall-ballot:not([hidden])")
            if tv.locator("#moment").is_visible():
                tv.locator("#moment").click()
            tv.screenshot(path=str(screenshots / f"room-day1-vote-{lang_code}.png"))
            errors.extend(audit(tv, f"room day 1 vote {lang_code}"))
        room.close()

        # --- the host stops the game: the end's timeline in the third person on three phones.
        lang = lambda phone: LANG.get(phone.name, "fr")   # noqa: E731
        seen = {lang(seer), lang(cupid)}
        third = next((p for p in phones if p not in (seer, cupid) and lang(p) not in seen), None) \
            or next(p for p in phones if p not in (seer, cupid))
        readers = [seer, cupid, third]
        stop_game(host, set(readers) | {host})
        for phone in readers:
            timeline = phone.snap()["end"]["timeline"]
            assert not [line for line in timeline if SECOND_PERSON.search(line)], timeline
            said = " ".join(timeline)
            assert phone.t("tl.seer_look", name=names[wolf], role=phone.t("role.werewolf")).replace("\u00a0", " ") in said
            assert phone.t("tl.cupid_pair", a=names[lovers[0]], b=names[lovers[1]]) in said

        # --- a new game with the Thief, stopped at once: the middle's two cards at the end.
        host.page.locator("#new-game-btn").tap()
        host.page.wait_for_selector("#lobby:not([hidden])")
        set_role(host, "thief", True)
        host.page.locator("#start-btn").tap()
        for phone in phones:
            phone.page.wait_for_selector("#game:not([hidden])")
        middle_of = {}
        by_lang = {}
        for phone in phones:
            by_lang.setdefault(lang(phone), phone)
        readers = list(by_lang.values())
        assert len(readers) == 3
        started = time.monotonic()
        stop_game(host, set(readers) | {host})
        assert time.monotonic() - started < step_limit(LIMITS, "thief") + 15
        for phone in readers:
            middle_of[phone.name] = api(phone, "GET", f"/api/tables/{table_id}/state")[1]["middle"]
            assert len(middle_of[phone.name]) == 2
            shown = phone.page.locator("#end-middle")
            assert shown.is_visible()
            text = shown.inner_text()
            for card in middle_of[phone.name]:
                assert phone.t("role." + card) in text, text
            phone.page.locator("#end").scroll_into_view_if_needed()
            phone.shot(f"end-middle-{phone.name}")
            phone.small_shot(f"end-middle-{phone.name}-320")
        assert len({tuple(m) for m in middle_of.values()}) == 1   # the same two cards for every reader
    finally:
        for phone in phones:
            phone.close()
    assert errors == []
