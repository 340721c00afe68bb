"""Getting in and back on the phone (issue 35, point 10): a guest sits by the link with only
a name and protects the account later; « Reprendre ma partie » on the home page takes a
player back to the running game, whose top bar has no one-tap log-out; the invitation to a
running game promises no place. Screenshots at 390x844 and 320x640 in French, English and
Chinese (each audited by axe-core when taken, like every Phone.shot)."""
import re

import pytest
from phonekit import PASSWORD, Phone, seat_everyone_by_code

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé", "David", "Emma"]
LANGS = ("fr", "en", "zh")


def shots(phone, name: str, path: str):
    """The page in each language, at both phone sizes (?lang= is remembered: French last)."""
    for lang in (*LANGS[1:], LANGS[0]):
        phone.goto(f"{path}{'&' if '?' in path else '?'}lang={lang}")
        if lang == LANGS[0]:
            break
        for width, height in ((390, 844), (320, 640)):
            phone.page.set_viewport_size({"width": width, "height": height})
            phone.shot(f"{name}-{lang}-{width}x{height}")
    for width, height in ((390, 844), (320, 640)):
        phone.page.set_viewport_size({"width": width, "height": height})
        phone.shot(f"{name}-fr-{width}x{height}")
    phone.page.set_viewport_size({"width": 390, "height": 844})


def no_small_targets(phone) -> list[str]:
    """Links and buttons of the top bar and the page under 44x44 px (UX.md)."""
    return phone.page.evaluate("""() => [...document.querySelectorAll('header a, header button, .resume a')]
        .filter((n) => n.offsetParent !== null)
        .map((n) => [n.textContent.trim() || n.getAttribute('aria-label'), n.getBoundingClientRect()])
        .filter(([, r]) => r.width < 44 || r.height < 44).map(([t, r]) => `${t} ${r.width}x${r.height}`)""")


def test_a_guest_by_the_link_then_back_to_the_running_game(browser, server, screenshots):
    errors: list[str] = []
    phones = [Phone(browser, server.url, name, screenshots, errors) for name in NAMES]
    guest = Phone(browser, server.url, "Farid", screenshots, errors)
    late = Phone(browser, server.url, "Gaël", screenshots, errors)
    try:
        code = seat_everyone_by_code(phones, "Thiercelieux")
        host = phones[0]
        # The link, a name, one tap: seated, no password asked.
        guest.goto(f"/t/{code}")
        guest.page.wait_for_selector("#invite")
        assert guest.page.locator("input[name=password]").get_attribute("required") is None
        shots(guest, "invite", f"/register?table={code}")
        guest.page.fill("input[name=name]", guest.name)
        guest._navigating = True
        guest.page.locator("#auth-form button[type=submit]").tap()
        guest.page.wait_for_url(re.compile(r"/t/" + code + "$"))
        guest._navigating = False
        guest.page.wait_for_selector("#lobby:not([hidden])")
        host.page.wait_for_function("n => document.querySelectorAll('#seats > li').length === n", arg=6)
        # Later, on « Mon compte », the guest protects the account with a password alone.
        guest.goto("/account")
        guest.page.wait_for_selector("#guest-hint")
        assert guest.page.locator("input[name=old_password]").count() == 0
        shots(guest, "protect", "/account")
        guest.page.fill("input[name=new_password]", PASSWORD)
        guest._navigating = True
        guest.page.locator("#password-form button[type=submit]").tap()
        guest.page.wait_for_selector("input[name=old_password]")  # an ordinary account's form now
        guest._navigating = False
        # The game starts; a player away on the home page finds the way back in one tap.
        host.page.locator("#start-btn").tap()
        host.page.wait_for_selector("#game:not([hidden])")
        away = phones[2]
        away.goto("/")
        away.page.wait_for_selector("#resume")
        assert no_small_targets(away) == []
        shots(away, "resume", "/")
        away._navigating = True
        away.page.locator("#resume a").first.tap()
        away.page.wait_for_url(re.compile(r"/t/" + code + "$"))
        away._navigating = False
        away.page.wait_for_selector("#game:not([hidden])")
        # In the game, no « Déconnexion » one tap away in the top bar.
        assert away.page.locator("#logout").count() == 0
        assert no_small_targets(away) == []
        # A newcomer by the link now is not promised a place at the game under way.
        late.goto(f"/t/{code}")
        late.page.wait_for_selector("#invite-running")
        assert "t’attend" not in late.page.locator("#invite").inner_text()
        shots(late, "invite-running", f"/register?table={code}")
    finally:
        for phone in [*phones, guest, late]:
            phone.close()
    assert errors == []
