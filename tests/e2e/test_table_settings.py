"""The host's settings screen on phones (issue 12): presets first, then "composition
personnalisée" with an option, and every seated phone reading the settings in plain words;
then a fixed night (A7.1) where every phone shows the one step `night`.

Screenshots of the settings screen at 390x844 and 320x640 in French, English and Chinese
(each checked by axe-core when taken, like every Phone.shot).
"""
import pytest
from phonekit import Phone, seat_everyone_by_code, wait_until

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid"]


def summary(phone) -> str:
    return phone.page.locator("#settings-summary").inner_text().replace("\u00a0", " ")


def tap_label(host, selector: str):
    """Tap the label of an input, as a thumb would, and wait for the settings' answer."""
    with host.page.expect_response(lambda r: "/settings" in r.url and r.request.method == "PATCH"):
        host.page.locator(f"#settings label:has({selector})").tap()


def shots(phone, name: str, at: str = "#settings"):
    """The screen from ``at`` down, on a 390x844 phone then a 320x640 one."""
    for width, height in ((390, 844), (320, 640)):
        phone.page.set_viewport_size({"width": width, "height": height})
        phone.page.locator(at).scroll_into_view_if_needed()
        phone.page.evaluate("at => document.querySelector(at).scrollIntoView({block: 'start'})", at)
        phone.shot(f"{name}-{width}x{height}")
    phone.page.set_viewport_size({"width": 390, "height": 844})


def test_the_host_picks_a_preset_then_an_option_and_every_phone_reads_them(browser, server, screenshots):
    errors: list[str] = []
    phones = [Phone(browser, server.url, name, screenshots, errors) for name in NAMES]
    try:
        host, guest = phones[0], phones[-1]
        code = seat_everyone_by_code(phones, "Réglages")
        t = host.t

        # Presets first, each with its line and its cards for the 6 seated.
        presets = host.page.locator("#presets label.preset")
        assert presets.count() >= 4   # the built presets, then "composition personnalisée"
        first = presets.first.inner_text().replace("\u00a0", " ")
        assert t("preset.classique") in first and t("preset_help.classique") in first
        assert host.t("count.werewolf.one", count=1) in first and host.t("count.villager.one", count=1) in first
        assert t("preset.none") in presets.last.inner_text()
        assert host.page.locator("#custom").is_visible()            # no preset yet: the custom form
        assert not host.page.locator("#limits").is_visible()         # single steps' limits folded away
        shots(host, "01-settings-fr")

        # The host picks "Partie éclair": no Captain, quick rhythm; every phone reads it.
        tap_label(host, "input[name=preset][value=eclair]")
        host.page.wait_for_selector("#custom", state="hidden")
        host.page.wait_for_function("() => document.querySelector('#settings select[name=rhythm]').value === 'rapide'")
        for phone in phones[1:]:
            wait_until(lambda: phone.t("summary.preset", name=phone.t("preset.eclair")) in summary(phone),
                       10, "the preset in plain words")
        assert t("captain_off") in summary(guest) and t("rhythm.rapide") in summary(guest)
        shots(guest, "02-guest-summary-fr", at="#settings-summary")

        # Then "composition personnalisée" from the preset's values, and the fixed night.
        tap_label(host, "input[name=preset][value='']")
        host.page.wait_for_selector("#custom", state="visible")
        assert not host.page.locator("#settings input[name=captain]").is_checked()   # kept from the preset
        fixed = host.page.locator("#settings input[name=option][value=fixed_night]")
        assert fixed.is_visible() and not fixed.is_checked()
        tap_label(host, "input[name=option][value=fixed_night]")
        wait_until(fixed.is_checked, 10, "the option ticked")
        for phone in phones[1:]:
            wait_until(lambda: phone.t("option.fixed_night") in summary(phone), 10, "the option in plain words")
        shots(host, "03-settings-custom-fr")
        shots(host, "03b-settings-options-fr", at="#custom-options")
        host.page.locator("details.limits-more summary").tap()
        shots(host, "03c-settings-rhythm-limits-fr", at="#rhythm-set")

        # The same screen in English and in Chinese (the host's language only).
        for lang in ("en", "zh"):
            host.goto(f"/t/{code}?lang={lang}")
            host.page.wait_for_selector("#lobby:not([hidden]) #presets label.preset")
            host.page.wait_for_function("() => document.getElementById('settings-summary').textContent.length > 0")
            shots(host, f"04-settings-custom-{lang}")
            shots(host, f"04b-settings-options-{lang}", at="#custom-options")
        host.goto(f"/t/{code}?lang=fr")
        host.page.wait_for_selector("#lobby:not([hidden]) #presets label.preset")

        host.page.locator("#start-btn").tap()
        for phone in phones:
            phone.page.wait_for_selector("#game:not([hidden])", timeout=15_000)
        # A fixed night: every phone shows the one step `night`, never a role's step.
        night = t("step.night").replace("\u00a0", " ")
        for phone in phones:
            wait_until(lambda: phone.snap()["step"] == night, 60, "the fixed night's step")
        wolf = None
        for phone in phones:
            phone.read_card()
            if phone.role == "werewolf":
                wolf = phone
            phone.hide_card()
        assert wolf is not None and (wolf.snap()["prompt"] or {}).get("title") == t("prompt.werewolves.designate")
        host.page.locator("details.game-settings summary").tap()
        assert t("option.fixed_night") in host.page.locator("#game-settings").inner_text()
        shots(host, "05-fixed-night-settings-fr", at="#stage")
        assert not errors, errors
    finally:
        for phone in phones:
            if not phone.closed:
                phone.context.close()
