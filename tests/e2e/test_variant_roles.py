"""The Thief and the Guard on phones: the host puts them in the deck from the settings form
(the catalog's roles), and night 1 is played only by tapping what the screens show.

The deal is the server's: a card may lie in the middle. Either way something real is
checked: a dealt Thief is shown the two middle cards and takes one (his card changes), a
dealt Guard protects a player and says he is done; a card in the middle is a ghost step
that passes with no prompt on any screen.

The Possessed, the Cursed, the Jester and the Plague-Bearer fill a six-seat table exactly,
so all four are dealt: the plague, the bite and the Jester's win are played through the pages.
"""

import pytest
from phonekit import (
    LOCALES,
    LocalePhone,
    Phone,
    in_every_language,
    norm,
    open_table,
    seat_everyone_by_code,
    set_role,
    show_card,
    start_and_read_cards,
    told,
    wait_until,
)

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid"]
GHOST_LIMIT = 60  # s of the Thief's and the Guard's steps: a ghost step lasts it all (30 s at the tests' scale)


def test_the_thief_and_the_guard_on_phones(browser, server, screenshots):
    errors: list[str] = []
    phones = [Phone(browser, server.url, name, screenshots, errors) for name in NAMES]
    try:
        host = open_table(phones, "Voleur et Salvateur")
        # 6 seats: one wolf, the Seer, the Witch, the Guard, the Thief and a Villager (+2 in the middle).
        for role, on in (("hunter", False), ("cupid", False), ("guard", True), ("thief", True)):
            set_role(host, role, on)
        with host.page.expect_response(lambda r: "/settings" in r.url):
            host.page.select_option("#settings select[name=rhythm]", "rapide")
        # Nobody plays the Seer, the wolves or the Witch here: their steps only time out, so
        # they last the shortest limit (through the API) and night 1 reaches the day sooner.
        # The Thief's and the Guard's end when they act: long enough for their screenshots
        # on a slow machine. But a card left in the middle is a ghost step that lasts its
        # whole limit (A2.2), and the waits below cover that.
        answer = host.page.evaluate(
            "body => WW.api('PATCH', `/api/tables/${document.getElementById('table').dataset.tableId}/settings`, body)",
            {"limits": {"seer": 1, "werewolves": 1, "witch": 1, "thief": GHOST_LIMIT, "guard": GHOST_LIMIT}})
        assert answer["ok"], answer
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
            # He takes the wolf when it lies in the middle: left there, no wolf would play.
            wolf_card = [b for b in take if b.endswith(t("role.werewolf"))]
            chosen = (wolf_card or take)[0]
            thief.tap_button(chosen)
            thief.read_card()
            taken = thief.role
            thief.hide_card()
            assert taken != "thief"
            events = " ".join(thief.snap()["events"])
            assert t("ev.thief_swap", n=take.index(chosen) + 1, role=t("role." + taken)).replace("\u00a0", " ") in events.replace("\u00a0", " ")
        else:
            # A ghost step: nobody is asked anything, and it passes.
            for phone in phones:
                assert phone.snap()["prompt"] is None

        # --- the Guard's step (the Guard may now be the Thief who took his card)
        guard = next((p for p in phones if p.role == "guard"), None)
        if guard is not None:
            # (after the Thief's ghost step, if his card lies in the middle)
            wait_until(lambda: (guard.snap()["prompt"] or {}).get("title") == t("prompt.guard.protect"),
                       GHOST_LIMIT, "guard prompt")
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
        # Night 1 goes on to the day either way; unless no wolf was dealt (its card and the
        # Thief's both lie in the middle): then the village has won at dawn.
        wait_until(lambda: host.snap()["phase"] == t("day", n=1) or host.snap()["end"], GHOST_LIMIT + 60, "day 1")
        if host.snap()["end"]:
            assert "werewolf" not in cards.values() and host.snap()["end"]["title"] == t("winner.village")
        else:
            host.shot("05-day-1")
        assert not errors, errors
        print("cards dealt:", cards)
    finally:
        for phone in phones:
            if not phone.closed:
                phone.context.close()


# --- the Possessed, the Cursed, the Jester and the Plague-Bearer ------------------------------

SOLITARY_NAMES = ["Hugo", "Inès", "Jules", "Katia", "Léon", "Maya"]


def choose_rhythm(host, rhythm: str):
    """Pick the rhythm in the host's form until the table holds it: a poll that redraws the form
    between two settings may swallow a change (seen once in three runs on a busy machine)."""
    for _ in range(3):
        try:
            with host.page.expect_response(lambda r: "/settings" in r.url, timeout=5_000):
                host.page.select_option("#settings select[name=rhythm]", rhythm)
        except Exception:  # no request: the change landed on a form being redrawn
            pass
        state = host.page.evaluate(
            "() => WW.api('GET', `/api/tables/${document.getElementById('table').dataset.tableId}/state`)")["data"]
        if state["table"]["settings"].get("rhythm") == rhythm:
            return
    raise AssertionError(f"the rhythm {rhythm} was not set")


def test_the_plague_the_bite_and_the_jesters_win_on_phones(browser, server, screenshots):
    """Six seats: one wolf, the Possessed, the Cursed, the Jester, the Plague-Bearer and a
    Villager. Night 1: the Plague-Bearer contaminates the Villager, the wolf bites the Cursed
    (who becomes a wolf and sees it on his card); day 1: the village votes the Jester out, and
    he wins alone. The phones speak French and English in turn."""
    errors: list[str] = []
    locales = list(LOCALES.values())
    phones = [LocalePhone(browser, server.url, name, screenshots, errors, locale=locales[i % len(locales)])
              for i, name in enumerate(SOLITARY_NAMES)]
    try:
        host = phones[0]
        seat_everyone_by_code(phones, "Solitaires")
        for role, on in (("seer", False), ("witch", False), ("hunter", False), ("cupid", False),
                         ("possessed", True), ("cursed", True), ("jester", True), ("plague_bearer", True)):
            set_role(host, role, on)
        captain = host.page.locator("#settings input[name=captain]")
        if captain.is_checked():
            with host.page.expect_response(lambda r: "/settings" in r.url):
                host.page.locator("#settings label.toggle:has(input[name=captain])").tap()
        # The slow rhythm: the Plague-Bearer's and the wolves' turns last long enough for the
        # screenshots in every language; the debate and the vote end as soon as everyone has acted.
        choose_rhythm(host, "lent")
        for lang in LOCALES:
            host.goto(f"{host.page.url.split('?')[0].replace(host.base, '')}?lang={lang}")
            host.page.wait_for_function("() => document.querySelectorAll('#seats > li').length === 6")
            host.shot(f"10-{lang}-lobby-solitaries", full_page=True)
        host.goto(f"{host.page.url.split('?')[0].replace(host.base, '')}?lang={host.locale[:2]}")
        host.page.wait_for_selector("#start-btn")
        by_role = start_and_read_cards(host, phones)
        assert set(by_role) == {"werewolf", "villager", "possessed", "cursed", "jester", "plague_bearer"}, by_role
        seat_of = {role: phone.seat for role, phone in by_role.items()}
        jester = by_role["jester"]

        # --- the Plague-Bearer's step
        bearer = by_role["plague_bearer"]
        wait_until(lambda: (bearer.snap()["prompt"] or {}).get("title") == bearer.t("prompt.plague.infect"), 30,
                   "plague prompt")
        assert all(p.snap()["prompt"] is None for p in phones if p is not bearer)
        narration = host.snap()["step"]
        assert narration == host.t("step.plague"), narration
        bearer.tap_tiles([seat_of["villager"]])
        in_every_language(bearer, "12-{lang}-plague-prompt", before_shot=lambda: bearer.tap_tiles([seat_of["villager"]]))
        bearer.tap_button(bearer.t("btn.confirm"))
        villager_name = next(tile["name"] for tile in bearer.snap()["tiles"] if tile["seat"] == seat_of["villager"])
        wait_until(lambda: told(bearer, bearer.t("ev.plague_infect", name=villager_name)), 10, "plague event")

        # --- the wolves bite the Cursed
        wolf = by_role["werewolf"]
        wait_until(lambda: (wolf.snap()["prompt"] or {}).get("title") == wolf.t("prompt.werewolves.designate"), 40,
                   "wolf prompt")
        wolf.choose([seat_of["cursed"]], wolf.t("btn.confirm"))
        cursed = by_role["cursed"]
        show_card(cursed)
        wait_until(lambda: told(cursed, cursed.t("ev.cursed_bitten")), 20, "the bite told")
        assert norm(cursed.page.locator("#card-role").inner_text().strip()) == norm(cursed.t("role_was.cursed"))
        in_every_language(cursed, "13-{lang}-cursed-bitten-card", before_shot=lambda: show_card(cursed))
        cursed.hide_card()
        for phone in phones:
            if phone not in (cursed, wolf):
                show_card(phone)
                assert not told(phone, phone.t("ev.cursed_bitten"))
                phone.hide_card()

        # --- day 1: nobody died; the village votes the Jester out
        wait_until(lambda: host.snap()["phase"] == host.t("day", n=1), 60, "day 1")
        show_card(jester)
        in_every_language(jester, "11-{lang}-jester-card", before_shot=lambda: show_card(jester))
        jester.hide_card()
        possessed = by_role["possessed"]
        show_card(possessed)
        in_every_language(possessed, "15-{lang}-possessed-card", before_shot=lambda: show_card(possessed))
        possessed.hide_card()
        wait_until(lambda: (host.snap()["prompt"] or {}).get("title") == host.t("prompt.debate.request_vote"), 30,
                   "debate")
        contaminated = bearer.t("ev.contaminated", names=villager_name)
        show_card(bearer)
        wait_until(lambda: told(bearer, contaminated), 10, "contamination told to him")
        bearer.hide_card()
        for phone in phones[:4]:   # four of the six call the vote: each waits for the debate on its screen
            wait_until(lambda p=phone: (p.snap()["prompt"] or {}).get("title") == p.t("prompt.debate.request_vote"),
                       30, f"the debate on {phone.name}'s phone")
            phone.tap_button(phone.t("btn.request_vote"))
        for phone in phones:
            wait_until(lambda: (phone.snap()["prompt"] or {}).get("title") == phone.t("prompt.vote.cast"), 30, "vote")
            target = seat_of["jester"] if phone is not jester else seat_of["villager"]
            phone.choose([target], phone.t("btn.confirm"))
        wait_until(lambda: norm((host.snap()["end"] or {}).get("title", "")) == norm(host.t("winner.jester")), 30,
                   "the Jester's win")
        end = wait_until(lambda: jester.snap()["end"], 15, "the end on the Jester's phone")
        assert norm(jester.t("why.jester")) in norm(end["seats"]) and jester.name in end["seats"]
        timeline = norm(" ".join(end["timeline"]))
        assert norm(jester.t("tl.cursed_bitten", name=cursed.name)) in timeline
        assert norm(jester.t("tl.plague_infect", name=villager_name)) in timeline
        in_every_language(jester, "14-{lang}-jester-wins", full_page=True)
        assert not errors, errors
    finally:
        for phone in phones:
            if not phone.closed:
                phone.context.close()
