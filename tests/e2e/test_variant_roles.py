"""The Thief and the Guard on phones: the host puts them in the deck from the settings form
(the catalog's roles), and night 1 is played only by tapping what the screens show.

The deal is the server's: a card may lie in the middle. Either way something real is
checked: a dealt Thief is shown the two middle cards and takes one (his card changes), a
dealt Guard protects a player and says he is done; a card in the middle is a ghost step
that passes with no prompt on any screen.
"""

import pytest
from phonekit import Phone, wait_until

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid"]


def set_role(host, role: str, on: bool):
    box = host.page.locator(f"#settings input[name=role][value={role}]")
    if box.is_checked() != on:
        with host.page.expect_response(lambda r: "/settings" in r.url):
            host.page.locator("#settings label.toggle").filter(has=host.page.locator(f"input[value={role}]")).tap()
    assert box.is_checked() == on


def test_the_thief_and_the_guard_on_phones(browser, server, screenshots):
    errors: list[str] = []
    phones = [Phone(browser, server.url, name, screenshots, errors) for name in NAMES]
    try:
        host = phones[0]
        host.register()
        code = host.create_table("Voleur et Salvateur")
        for phone in phones[1:]:
            phone.register()
            phone.join_by_code(code)
        host.page.wait_for_function("n => document.querySelectorAll('#seats > li').length === n", arg=len(phones))
        # 6 seats: one wolf, the Seer, the Witch, the Guard, the Thief and a Villager (+2 in the middle).
        for role, on in (("hunter", False), ("cupid", False), ("guard", True), ("thief", True)):
            set_role(host, role, on)
        with host.page.expect_response(lambda r: "/settings" in r.url):
            host.page.select_option("#settings select[name=rhythm]", "rapide")
        host.shot("01-lobby-host-guard-thief", full_page=True)
        host.page.locator("#start-btn").tap()
        for phone in phones:
            phone.page.wait_for_selector("#game:not([hidden])", timeout=15_000)
            phone.read_card()
            phone.hide_card()
        cards = {phone.name: phone.role for phone in phones}
        t = host.t
        composition = host.page.locator("#composition").inner_text()
        assert t("middle", count=2) in composition.replace("\u00a0", " ")

        # --- the Thief's step
        thief = next((p for p in phones if p.role == "thief"), None)
        if thief is not None:
            wait_until(lambda: (thief.snap()["prompt"] or {}).get("title") == t("prompt.thief.take"), 20, "thief prompt")
            snap = thief.snap()
            take = [b["text"] for b in snap["prompt"]["buttons"] if b["text"].startswith(t("btn.take_card", n=1, role="")[:8])]
            assert len(take) == 2, snap["prompt"]
            thief.shot("02-thief-prompt")
            thief.small_shot("02b-thief-prompt-320x640")
            for other in phones:
                if other is not thief:
                    assert other.snap()["prompt"] is None
            thief.tap_button(take[0])
            thief.read_card()
            taken = thief.role
            thief.hide_card()
            assert any(taken != "thief" for _ in [0])
            events = " ".join(thief.snap()["events"])
            assert t("ev.thief_swap", n=1, role=t("role." + taken)).replace("\u00a0", " ") in events.replace("\u00a0", " ")
        else:
            # A ghost step: nobody is asked anything, and it passes.
            for phone in phones:
                assert phone.snap()["prompt"] is None

        # --- the Guard's step (the Guard may now be the Thief who took his card)
        guard = next((p for p in phones if p.role == "guard"), None)
        if guard is not None:
            wait_until(lambda: (guard.snap()["prompt"] or {}).get("title") == t("prompt.guard.protect"), 60, "guard prompt")
            guard.shot("03-guard-prompt")
            guard.small_shot("03b-guard-prompt-320x640")
            snap = guard.snap()
            target = next(tile["seat"] for tile in snap["tiles"] if tile["choosable"] and not tile["me"])
            guard.choose([target], t("btn.confirm"))
            wait_until(lambda: any(t("ev.guard_protect", name="").split("{")[0][:10] in e for e in guard.snap()["events"]),
                       10, "guard event")
            guard.shot("04-guard-protecting")
            guard.tap_button(t("btn.guard.done"))
            wait_until(lambda: guard.snap()["prompt"] is None, 10, "guard done")
        # Night 1 goes on to the day either way.
        wait_until(lambda: host.snap()["phase"] == t("day", n=1), 120, "day 1")
        host.shot("05-day-1")
        assert not errors, errors
        print("cards dealt:", cards)
    finally:
        for phone in phones:
            if not phone.closed:
                phone.context.close()
