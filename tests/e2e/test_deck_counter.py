"""The waiting room's card counter on the host's phone (issue 35, point 3): too many cards
ticked for the seats shows the counter as an error, disables « Lancer la partie » and says
why just under it, where the eye is; an option about a card out of the deck is not offered.
Screenshots at 390x844 and 320x640 in French, English and Chinese (audited by axe-core)."""
import pytest
from phonekit import Phone, seat_everyone_by_code, wait_until

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid"]


def text(locator) -> str:
    return locator.inner_text().replace("\u00a0", " ").strip()   # French non-breaking spaces read as spaces


def tap_label(host, selector: str):
    with host.page.expect_response(lambda r: "/settings" in r.url and r.request.method == "PATCH"):
        host.page.locator(f"#settings label:has({selector})").tap()


def shots(phone, name: str):
    for width, height in ((390, 844), (320, 640)):
        phone.page.set_viewport_size({"width": width, "height": height})
        phone.page.evaluate("() => document.getElementById('start-btn').scrollIntoView({block: 'center'})")
        phone.shot(f"{name}-{width}x{height}")
    phone.page.set_viewport_size({"width": 390, "height": 844})


def test_too_many_cards_are_counted_and_the_start_says_why_under_its_button(browser, server, screenshots):
    errors: list[str] = []
    phones = [Phone(browser, server.url, name, screenshots, errors) for name in NAMES]
    try:
        host = phones[0]
        code = seat_everyone_by_code(phones, "Trop de cartes")
        counter = host.page.locator("#deck-counter")
        wait_until(lambda: text(counter) == host.t("lobby.deck", cards=5, seats=6), 10, "the counter")
        start = host.page.locator("#start-btn")
        assert start.is_enabled()
        if not host.page.locator("#custom").is_visible():   # a preset chosen: back to a composition of one's own
            tap_label(host, "input[name=preset][value='']")
        host.page.wait_for_selector("#custom", state="visible")
        for role in ("thief", "guard", "little_girl"):
            tap_label(host, f"input[name=role][value={role}]")
        wait_until(lambda: text(counter) == host.t("lobby.deck", cards=8, seats=6), 10, "8 cards counted")
        assert "too-many" in counter.get_attribute("class")
        wait_until(lambda: not start.is_enabled(), 10, "the start disabled")
        error = host.page.locator("#start-error")
        wait_until(error.is_visible, 10, "the reason shown")
        assert text(error) == host.t("err.bad_composition")
        gap = host.page.evaluate("""() => document.getElementById('start-error').getBoundingClientRect().top
                                    - document.getElementById('start-btn').getBoundingClientRect().bottom""")
        assert 0 <= gap < 40, gap   # just under the button
        # The Witch's options go with her card.
        witch_option = host.page.locator("#settings input[name=option][value=witch_no_self_save]")
        assert witch_option.is_visible()
        tap_label(host, "input[name=role][value=witch]")
        wait_until(lambda: not witch_option.is_visible(), 10, "the Witch's option gone with her card")
        for lang in ("en", "zh", "fr"):
            host.goto(f"/t/{code}?lang={lang}")
            host.page.wait_for_selector("#lobby:not([hidden]) #deck-counter:not([hidden])")
            host.page.wait_for_selector("#start-error:not([hidden])")
            shots(host, f"too-many-{lang}")
        # Back to what the seats hold: the start is offered again, the reason gone.
        for role in ("thief", "guard"):
            tap_label(host, f"input[name=role][value={role}]")
        wait_until(lambda: host.page.locator("#start-btn").is_enabled(), 10, "the start offered again")
        assert not host.page.locator("#start-error").is_visible()
        assert not errors, errors
    finally:
        for phone in phones:
            phone.close()
