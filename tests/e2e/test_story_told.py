"""The evening's story on the phones (issue 35, points 1, 2 and 4), a real game on six phones
(French, English, Chinese), played through each phone's own session: Cupid pairs two
players, the wolves devour one, the other dies of grief.

- The night's dead stay on the day's first screen, with their cards, through the election
  and the debate, until the vote (point 1).
- The lover dead of grief is told it on their own screen; nobody else is told a cause at
  dawn (point 2).
- At the end, on three phones of different cards: « meurt de chagrin », the couple marked,
  every timeline line in the third person, the election's ballots « for » someone (points 2, 4).

Screenshots at 390x844 and 320x640 (audited by axe-core when taken, as every Phone.shot).
Waits are on what the pages show, bounded by the step limits set here."""
import time

import pytest
from phonekit import (
    SECOND_PERSON,
    api,
    moment_text,
    phones_for,
    start_game,
    step_limit,
    wait_until,
)

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid"]
LANG = {"Bruno": "en", "Emma": "en", "Chloé": "zh", "Farid": "zh"}
# Short nights, days long enough to look at (seconds before WEREWOLF_TIME_SCALE).
LIMITS = {"cupid": 60, "seer": 60, "werewolves": 60, "witch": 60, "dawn": 4, "hunter": 60,
          "election": 120, "debate": 120, "vote": 120, "tiebreak": 60, "succession": 60}


def test_deaths_stay_a_lover_dies_of_grief_and_the_end_tells_it_all(browser, server, screenshots):
    errors: list[str] = []
    phones = phones_for(browser, server, NAMES, LANG, screenshots, errors)
    try:
        host = phones[0]
        table_id, first_views = start_game(phones, "Le chagrin", {"limits": LIMITS})
        views = {p.name: view for p, view in zip(phones, first_views)}
        role = {v["me"]["seat"]: v["me"]["role"] for v in views.values()}
        seat_of = {v["me"]["seat"]: p for p, v in zip(phones, views.values())}
        by_role = {r: s for s, r in role.items()}
        wolf = by_role["werewolf"]
        # The lovers: the Villager (devoured) and the Seer (dies of grief).
        devoured, grieving = by_role["villager"], by_role["seer"]
        mourner_phone = seat_of[grieving]
        readers = [seat_of[by_role["witch"]], seat_of[by_role["hunter"]], mourner_phone]
        names = {s: p.name for s, p in seat_of.items()}

        def plan(view) -> dict | None:
            prompt = view.get("prompt")
            if not prompt:
                return None
            spec = prompt["actions"][0]
            actions = {a["action"] for a in prompt["actions"]}
            body = {"step": prompt["step"]}
            if "witch.done" in actions:
                return {**body, "action": "witch.done"}
            if spec.get("current") is not None:
                return None
            action = spec["action"]
            if action == "cupid.pair":
                return {**body, "action": action, "targets": [devoured, grieving]}
            if action == "werewolves.designate":
                return {**body, "action": action, "target": devoured}
            if action == "seer.look":
                return {**body, "action": action, "target": wolf}
            if action == "election.vote":
                return {**body, "action": action, "target": by_role["cupid"]}
            if action == "vote.cast":
                return {**body, "action": action, "target": wolf}
            if action == "debate.request_vote":
                return None   # asked once the debate has been looked at
            choices = spec.get("choices") or []
            return {**body, "action": action, "target": next((c for c in choices if c != wolf), None)}

        looked = set()
        deadline = time.monotonic() + sum(step_limit(LIMITS, s) for s in LIMITS) + 60
        while time.monotonic() < deadline:
            views = {p.name: api(p, "GET", f"/api/tables/{table_id}/state")[1] for p in phones}
            first = views[readers[0].name]
            if first["status"] == "ended":
                break
            step = first["step"]["id"]
            if step in ("election", "debate") and step not in looked:
                looked.add(step)
                for phone in readers:
                    # Point 1: the night's two dead, with their cards, on the first screen.
                    wait_until(lambda p=phone: names[devoured] in moment_text(p) and names[grieving] in moment_text(p),
                               step_limit(LIMITS, "dawn") + 10, f"{phone.name} shows the night's dead at the {step}")
                    text = moment_text(phone)
                    for seat in (devoured, grieving):
                        assert phone.t("role_a." + role[seat]) in text or phone.t("role." + role[seat]) in text, text
                    # Point 2: nobody is told the causes at dawn ...
                    if phone is not mourner_phone:
                        assert "chagrin" not in text and "grief" not in text and "心碎" not in text, text
                    phone.shot(f"{step}-{phone.name}")
                    phone.small_shot(f"{step}-{phone.name}-320")
                # ... but the lover who died of it is, on their own screen.
                lover_name = names[devoured]
                wait_until(lambda: mourner_phone.t("moment.my_grief", name=lover_name) in moment_text(mourner_phone),
                           10, "the grieving lover's own screen")
                if step == "debate":
                    for phone in phones:
                        v = views[phone.name]
                        if v["prompt"] and v["prompt"]["actions"][0]["action"] == "debate.request_vote":
                            api(phone, "POST", f"/api/tables/{table_id}/act",
                                {"step": v["prompt"]["step"], "action": "debate.request_vote"})
                continue
            for phone in phones:
                body = plan(views[phone.name])
                if body is not None:
                    api(phone, "POST", f"/api/tables/{table_id}/act", body)
            time.sleep(0.3)
        else:
            pytest.fail("the game did not end")
        assert looked == {"election", "debate"}
        for phone in readers:
            phone.page.wait_for_selector("#end:not([hidden])")
            end = phone.snap()["end"]
            timeline = end["timeline"]
            said = " ".join(timeline)
            # Point 2: the end tells who died of grief, and marks the couple.
            assert phone.t("ev.death_grief", name=names[grieving], role=phone.t("role_a.seer")) in said, said
            lovers = phone.page.locator("#end-lovers").inner_text()
            assert names[devoured] in lovers and names[grieving] in lovers, lovers
            assert phone.page.locator(f"#players > li[data-seat='{grieving}'] .badge.lover").count() == 1
            # Point 4: every line true for every reader, in the third person.
            assert not [line for line in timeline if SECOND_PERSON.search(line)], timeline
            assert phone.t("ballots.for_captain", name=names[by_role["cupid"]], voters="").rstrip() in said, said
            phone.page.locator("#end").scroll_into_view_if_needed()
            phone.shot(f"end-{phone.name}")
            phone.small_shot(f"end-{phone.name}-320")
        # « Nouvelle partie »: the host goes to the waiting room, nobody else is pulled off the end.
        host.page.locator("#new-game-btn").tap()
        host.page.wait_for_selector("#lobby:not([hidden])")
        others = [p for p in readers if p is not host]
        for phone in others:
            phone.page.wait_for_selector("#back-to-table:not([hidden])")
            assert phone.page.locator("#end").is_visible()
        others[0].shot("end-new-game-ready")
        others[0].page.locator("#back-to-table").tap()
        others[0].page.wait_for_selector("#lobby:not([hidden])")
    finally:
        for phone in phones:
            phone.close()
    assert errors == []
