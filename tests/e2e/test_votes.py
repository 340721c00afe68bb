"""A day under `secret_ballot` with `tie: runoff` on six phones (RULES-VARIANTS A5.1, A5.2):
the host sets the two options on his settings screen (the cards and short limits through
the API), then everything is read and tapped on the screens: a secret vote that ends
in a tie, the count with every ballot, the defense of the tied, the run-off and its count.
Two of the phones are in English."""
import time

import pytest
from phonekit import Phone, seat_everyone_by_code, wait_until

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid"]
ENGLISH = {"Bruno", "Emma"}


def my_seat(phone) -> int:
    return next(tile["seat"] for tile in phone.snap()["tiles"] if tile["me"])


def prompt_is(phone, key) -> bool:
    prompt = phone.snap()["prompt"]
    return bool(prompt) and prompt["title"] == phone.t(key)


def six_phones(browser, server, screenshots, errors: list) -> list:
    """Six phones, two of them in English."""
    phones = []
    for name in NAMES:
        phone = Phone(browser, server.url, name, screenshots, errors)
        if name in ENGLISH:
            phone.context.add_cookies([{"name": "lang", "value": "en", "url": server.url}])
        phones.append(phone)
    return phones


def test_a_secret_vote_tied_then_a_run_off_on_phones(browser, server, screenshots):
    errors: list[str] = []
    phones = six_phones(browser, server, screenshots, errors)
    try:
        host = phones[0]
        seat_everyone_by_code(phones, "Bulletins secrets")
        # The cards and the steps' lengths through the API (a short night for the test's sake)...
        settings = {"roles": {"seer": False, "witch": False, "hunter": False, "cupid": False}, "captain": False,
                    "limits": {"werewolves": 4, "dawn": 2, "debate": 4, "vote": 120, "tally": 6,
                               "defense": 120, "runoff": 120}}
        answer = host.page.evaluate(
            "body => WW.api('PATCH', `/api/tables/${document.getElementById('table').dataset.tableId}/settings`, body)",
            settings)
        assert answer["ok"], answer
        # ... and the two options through the host's settings screen, as a host would.
        host.page.wait_for_function("() => !document.querySelector('#settings input[name=captain]').checked")
        with host.page.expect_response(lambda r: "/settings" in r.url and r.request.method == "PATCH"):
            host.page.locator("#settings label:has(input[name=option][value=secret_ballot])").tap()
        with host.page.expect_response(lambda r: "/settings" in r.url and r.request.method == "PATCH"):
            host.page.select_option("#settings select[data-option=tie]", "runoff")
        for phone in (host, phones[1]):   # every seated phone reads them in plain words
            wait_until(lambda p=phone: p.t("option.secret_ballot") in p.page.locator("#settings-summary").inner_text()
                       and p.t("tie.runoff") in p.page.locator("#settings-summary").inner_text(), 15,
                       f"{phone.name} reads the options")
        host.page.locator("#start-btn").tap()
        for phone in phones:
            phone.page.wait_for_selector("#game:not([hidden])", timeout=15_000)
        seat = {phone.name: my_seat(phone) for phone in phones}
        by_seat = {s: phone for phone in phones for s in [seat[phone.name]]}
        NAME_OF = {s: phone.name for s, phone in by_seat.items()}

        # --- the vote: 1, 3, 5 name seat 2; 2, 4, 6 name seat 1 -> a tie
        for phone in phones:
            wait_until(lambda p=phone: prompt_is(p, "prompt.vote.cast"), 60, f"{phone.name}'s vote prompt")
        by_seat[1].shot("01-vote-secret-before")
        # The act's answer carries the voter's view (Prefer, API.md): the page shows it and
        # does not fetch it again. A poll begun right after acting (a held poll under way was
        # answered by the act and goes on) only asks what is newer than that view.
        page = by_seat[1].page
        polls_sent: list[tuple[float, dict]] = []
        acts_answered: list[tuple[float, object]] = []
        page.on("request", lambda r: polls_sent.append((time.monotonic(), r.headers))
                if r.url.endswith("/state") else None)
        page.on("response", lambda r: acts_answered.append((time.monotonic(), r))
                if r.url.endswith("/act") and r.request.method == "POST" else None)
        by_seat[1].choose([2], by_seat[1].t("btn.confirm"))  # waits for the act's view on screen
        wait_until(lambda: acts_answered, 10, "the act's answer")
        answered_at, act_etag = acts_answered[-1][0], acts_answered[-1][1].json()["etag"]
        page.wait_for_timeout(1200)   # a window to watch, not a wait for something
        soon = [headers for sent_at, headers in polls_sent if sent_at >= answered_at]
        assert all(headers.get("if-none-match") == act_etag for headers in soon), \
            ("the page fetched again the view its act had given it", act_etag, soon)
        for voter in (2, 3, 4, 5):
            phone = by_seat[voter]
            phone.choose([2 if voter % 2 else 1], phone.t("btn.confirm"))
        # Secret: nobody sees another ballot, nor who has not voted.
        for voter in (1, 2, 6):
            snap = by_seat[voter].snap()
            assert all(tile["votes"] == "" for tile in snap["tiles"] if tile["seat"] != (2 if voter % 2 else 1)), snap["tiles"]
            assert not snap["status"].startswith(by_seat[voter].t("not_voted", names="")[:8]), snap["status"]
        by_seat[1].shot("02-vote-secret-mine")
        by_seat[6].shot("02-vote-secret-waiting")
        by_seat[6].choose([1], by_seat[6].t("btn.confirm"))

        # --- the count: every ballot, on every screen
        for phone in phones:
            wait_until(lambda p=phone: p.snap()["step"] == p.t("step.tally"), 30, f"{phone.name}'s tally")
            assert phone.snap()["moment"]["title"] == phone.t("ev.ballots")
        for phone in (by_seat[3], next(p for p in phones if p.name in ENGLISH)):
            phone.shot(f"03-tally-{phone.name}")
        by_seat[3].small_shot("03b-tally-320x640")

        # --- the defense: the tied (1 and 2) speak, the others read
        tied = [by_seat[1], by_seat[2]]
        for phone in tied:
            wait_until(lambda p=phone: prompt_is(p, "prompt.defense.done"), 40, f"{phone.name}'s defense")
        wait_until(lambda: by_seat[4].snap()["status"] == by_seat[4].t("defense.others"), 20, "seat 4 listens")
        assert by_seat[4].snap()["prompt"] is None and not by_seat[4].snap()["canWrite"]
        tied[0].say("Je suis innocent !")
        tied[0].shot("04-defense-tied")
        by_seat[4].shot("04-defense-listening")
        for phone in tied:
            phone.tap_button(phone.t("btn.defense.done"))

        # --- the run-off: the others vote among the tied; 3, 4, 5 name seat 1
        for voter in (3, 4, 5, 6):
            phone = by_seat[voter]
            wait_until(lambda p=phone: prompt_is(p, "prompt.runoff.cast"), 40, f"{phone.name}'s run-off")
        assert tied[0].snap()["prompt"] is None and tied[1].snap()["prompt"] is None
        by_seat[3].shot("05-runoff")
        english_voter = next(by_seat[v] for v in (3, 4, 5, 6) if by_seat[v].name in ENGLISH)
        english_voter.shot("05-runoff-en")
        for voter in (3, 4, 5, 6):
            phone = by_seat[voter]
            phone.choose([1 if voter != 6 else 2], phone.t("btn.confirm"))

        # --- its count, then the sentence: seat 1 is out
        wait_until(lambda: by_seat[3].snap()["step"] == by_seat[3].t("step.tally"), 30, "run-off tally")
        wait_until(lambda: not next(t for t in by_seat[3].snap()["tiles"] if t["seat"] == 1)["alive"], 40,
                   "seat 1 eliminated")
        assert by_seat[3].t("ev.vote_result", name=NAME_OF[1]) in " ".join(by_seat[3].snap()["events"])
        assert not errors, errors
    finally:
        for phone in phones:
            if not phone.closed:
                phone.context.close()


def test_speaking_turns_and_a_testament_on_phones(browser, server, screenshots):
    """`speech_turns`: one speaker at a time, the others listen; `testament`: the Hunter
    writes his from his card (the page's select), and only he sees it."""
    errors: list[str] = []
    phones = six_phones(browser, server, screenshots, errors)
    try:
        host = phones[0]
        seat_everyone_by_code(phones, "Tours de parole")
        settings = {"roles": {"seer": False, "witch": False, "hunter": True, "cupid": False}, "captain": False,
                    "options": {"speech_turns": True, "testament": True},
                    "limits": {"werewolves": 4, "dawn": 2, "speech": 120}}
        answer = host.page.evaluate(
            "body => WW.api('PATCH', `/api/tables/${document.getElementById('table').dataset.tableId}/settings`, body)",
            settings)
        assert answer["ok"], answer
        host.page.locator("#start-btn").tap()
        for phone in phones:
            phone.page.wait_for_selector("#game:not([hidden])", timeout=15_000)
            phone.read_card()
            phone.hide_card()
        by_seat = {my_seat(phone): phone for phone in phones}
        hunter = next(phone for phone in phones if phone.role == "hunter")

        # The Hunter writes a testament from his card, at night already.
        hunter.page.locator("#cardface").tap()
        select = hunter.page.locator("#card-testament select")
        select.wait_for()
        target = next(s for s in by_seat if by_seat[s] is not hunter)
        with hunter.page.expect_response(lambda r: "/act" in r.url):
            select.select_option(str(target))
        hunter.settle()
        hunter.shot(f"07-testament-{'en' if hunter.name in ENGLISH else 'fr'}")
        hunter.small_shot("07b-testament-320x640")
        hunter.hide_card()
        for phone in phones:
            if phone is not hunter:
                assert phone.page.locator("#card-testament select").count() == 0

        # Day 1: seat 1 speaks first (nobody died), the others listen.
        first = by_seat[1]
        wait_until(lambda: prompt_is(first, "prompt.speech.done"), 60, "the first speaker")
        listener = by_seat[2]
        wait_until(lambda: listener.snap()["status"] == listener.t("speech.others", name=first.name), 20, "listening")
        assert listener.snap()["prompt"] is None and not listener.snap()["canWrite"]
        first.say("Je parle en premier.")
        first.shot("08-speech-speaker")
        english = next(phone for phone in phones if phone.name in ENGLISH and phone is not first)
        wait_until(lambda: english.snap()["status"] == english.t("speech.others", name=first.name), 20, "listening (en)")
        english.shot("08-speech-listener-en")
        first.tap_button(first.t("btn.speech.done"))
        wait_until(lambda: prompt_is(by_seat[2], "prompt.speech.done"), 20, "the second speaker")

        # The host ends the game: the Hunter's unused testament is revealed to all (A9.1).
        host.page.once("dialog", lambda dialog: dialog.accept())
        host.page.locator("#end-game-btn").tap()
        for phone in (host, english):
            end = wait_until(lambda: phone.snap()["end"], 20, "the end")
            told = phone.t("tl.testament_hunter", hunter=hunter.name, name=by_seat[target].name)
            assert told.replace("\u00a0", " ") in " ".join(end["timeline"]).replace("\u00a0", " "), end["timeline"]
            lang = "en" if phone is english else "fr"
            phone.shot(f"09-testament-revealed-{lang}", full_page=True)
            phone.small_shot(f"09b-testament-revealed-{lang}-320x640")
        assert not errors, errors
    finally:
        for phone in phones:
            if not phone.closed:
                phone.context.close()
