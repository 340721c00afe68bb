"""The Little Girl, the Owl-Man, the Freemasons and the Medium on phones, played by tapping.

Six seats and six cards — one wolf, the Little Girl, the Owl-Man, two Freemasons, the
Medium — so every card is dealt (only the seats are the server's draw). Night 1: the
masons read each other on their cards, the Owl-Man sends a mason to the stake, the Little
Girl opens her eyes while the wolf writes (she reads « Un loup », or she is caught: the
night's draw is 20 %), the wolf devours the other mason. Day 1: the nominee is announced,
the dead mason and the Medium talk in the dead's tab, the village votes the second
candidate, the stake eliminates the wolf, and the end screen's timeline tells it all.
Each screen is shot in French and again in English (the same page reloaded with ?lang=en).
"""
import pytest
from phonekit import Phone, open_table, set_role, wait_until

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid"]


def both_languages(phone, name: str, before_shot=None):
    """Shoot the screen in French, reload it in English and in Chinese (中文) and shoot each at
    390x844 and 320x640, then back to French."""
    phone.shot(name + "-fr")
    url = phone.page.url.split("?")[0]
    for lang in ("en", "zh", "fr"):
        phone.goto(url.replace(phone.base, "") + f"?lang={lang}")
        phone.page.wait_for_selector("#game:not([hidden])")
        phone.page.wait_for_function("() => document.querySelectorAll('#players > li').length > 0")
        if lang != "fr":
            if before_shot:
                before_shot()
            phone.shot(f"{name}-{lang}")
            phone.small_shot(f"{name}-{lang}-320x640")


def second_tab(phone):
    """Open the chat on its second tab (the Little Girl's wolves, the Medium's dead)."""
    phone.open_chat()
    phone.page.locator("#chat-tabs button").nth(1).tap()


def test_the_little_girl_the_owl_man_the_freemasons_and_the_medium_on_phones(browser, server, screenshots):
    errors: list[str] = []
    phones = [Phone(browser, server.url, name, screenshots, errors) for name in NAMES]
    try:
        host = open_table(phones, "Petite Fille et Hibou")
        for role, on in (("seer", False), ("witch", False), ("hunter", False), ("cupid", False),
                         ("little_girl", True), ("owl_man", True), ("freemason", True), ("medium", True)):
            set_role(host, role, on)
        captain = host.page.locator("#settings input[name=captain]")
        if captain.is_checked():
            with host.page.expect_response(lambda r: "/settings" in r.url):
                host.page.locator("#settings label.toggle").filter(has=host.page.locator("input[name=captain]")).tap()
        host.page.locator("details.limits-more summary").tap()   # the single steps' limits are folded away
        # Time for the screenshots, even on a slow machine: each of these steps ends when its
        # players have acted, long before.
        for step, seconds in (("owl", 600), ("werewolves", 600), ("stake", 600)):
            limit = host.page.locator(f"#settings input[name=limit][data-step={step}]")
            limit.fill(str(seconds))
            with host.page.expect_response(lambda r: "/settings" in r.url):
                limit.press("Tab")
        host.page.locator("#start-btn").tap()
        for phone in phones:
            phone.page.wait_for_selector("#game:not([hidden])", timeout=15_000)
            phone.read_card()
            phone.hide_card()
        by_role: dict[str, list] = {}
        for phone in phones:
            by_role.setdefault(phone.role, []).append(phone)
        assert sorted(by_role) == ["freemason", "little_girl", "medium", "owl_man", "werewolf"], by_role
        wolf, girl, owl, medium = (by_role[r][0] for r in ("werewolf", "little_girl", "owl_man", "medium"))
        nominee_mason, victim_mason = by_role["freemason"]
        seat = {p.name: next(tile["seat"] for tile in p.snap()["tiles"] if tile["me"]) for p in phones}
        t = host.t

        # --- the Owl-Man sends a mason to the stake
        wait_until(lambda: (owl.snap()["prompt"] or {}).get("title") == owl.t("prompt.owl.designate"), 30, "owl prompt")
        for other in phones:
            if other is not owl:
                assert other.snap()["prompt"] is None
        owl.tap_tiles([seat[nominee_mason.name]])
        both_languages(owl, "02-owl-prompt", before_shot=lambda: owl.tap_tiles([seat[nominee_mason.name]]))
        owl.tap_tiles([seat[nominee_mason.name]])
        owl.small_shot("02b-owl-prompt-320x640")
        owl.tap_button(owl.t("btn.confirm"))
        owl.tap_button(owl.t("btn.owl.done"))

        # --- the Freemasons know each other from the deal: the card says who the other is
        mason = nominee_mason
        mason.read_card()
        assert t("ev.freemason", name=victim_mason.name) in mason.card_extra.replace("\u00a0", " ")
        tiles = {tile["seat"]: tile for tile in mason.snap()["tiles"]}
        assert tiles[seat[victim_mason.name]]["role"].endswith(t("role.freemason"))
        both_languages(mason, "01-freemason-card", before_shot=lambda: mason.page.locator("#cardface").tap())
        mason.hide_card()

        # --- the wolves' turn: the Little Girl opens her eyes
        wait_until(lambda: (girl.snap()["prompt"] or {}).get("title") == girl.t("prompt.little_girl.spy"), 30, "her prompt")
        both_languages(girl, "03-little-girl-prompt")
        girl.small_shot("03b-little-girl-prompt-320x640")
        girl.tap_button(girl.t("btn.little_girl.spy"))
        caught = girl.t("ev.little_girl_caught_me") in " ".join(girl.snap()["events"])
        wolf.say("La petite écoute ?")
        if caught:
            assert girl.snap()["prompt"] is None
            assert wolf.t("ev.little_girl_caught", name=girl.name) in " ".join(wolf.snap()["events"])
            girl.shot("04-little-girl-caught-fr")
        else:
            assert girl.snap()["prompt"]["title"] == girl.t("prompt.little_girl.hide")
            girl.open_tab(girl.t("channel.werewolves"))
            wait_until(lambda: girl.snap()["messages"], 10, "the overheard line")
            assert girl.snap()["messages"] == [{"author": girl.t("chat.a_wolf"), "text": "La petite écoute ?"}]
            assert not girl.snap()["canWrite"]
            both_languages(girl, "04-little-girl-overheard", before_shot=lambda: second_tab(girl))
            girl.close_chat()
        # Nobody else sees anything of it.
        for other in (owl, medium, nominee_mason, victim_mason):
            assert girl.t("channel.werewolves") not in [tab["label"] for tab in other.snap()["tabs"]]
        wait_until(lambda: (wolf.snap()["prompt"] or {}).get("title") == wolf.t("prompt.werewolves.designate"),
                   10, "wolf prompt")
        wolf.choose([seat[victim_mason.name]], wolf.t("btn.confirm"))

        # --- dawn: the nominee is announced to everyone (never who named him)
        wait_until(lambda: host.snap()["phase"] == t("day", n=1), 60, "day 1")
        for phone in phones:
            wait_until(lambda p=phone: p.t("ev.owl_nominee", name=nominee_mason.name) in " ".join(p.snap()["events"]),
                       10, "the nominee")
        witness = medium
        both_languages(witness, "05-owl-nominee")

        # --- the dead mason and the Medium talk in the dead's tab; the others see nothing
        victim_mason.say("Je suis mort, Médium ?")
        medium.open_tab(medium.t("channel.dead"))
        wait_until(lambda: any(m["text"] == "Je suis mort, Médium ?" for m in medium.snap()["messages"]), 10, "dead line")
        assert medium.snap()["canWrite"]
        medium.page.locator("#chat-input").fill("Je t’entends.")
        with medium.page.expect_response(lambda r: "/chat" in r.url and r.request.method == "POST"):
            medium.page.locator("#chat-form button[type=submit]").tap()
        victim_mason.open_tab(victim_mason.t("channel.dead"))
        wait_until(lambda: any(m["text"] == "Je t’entends." and m["author"] == medium.name
                               for m in victim_mason.snap()["messages"]), 10, "the Medium's line")
        both_languages(medium, "06-medium-dead", before_shot=lambda: second_tab(medium))
        for other in (owl, girl, wolf, nominee_mason):
            assert medium.t("channel.dead") not in [tab["label"] for tab in other.snap()["tabs"]]
        medium.close_chat()
        victim_mason.close_chat()

        # --- the vote elects the second candidate: the nominee is not among the choices
        living = [p for p in phones if p is not victim_mason]
        for phone in living[:len(living) // 2 + 1]:   # more than half of the living call the vote
            wait_until(lambda p=phone: p.action_of(p.snap()["prompt"]) == "debate.request_vote", 10, "debate")
            phone.tap_button(phone.t("btn.request_vote"))
        wait_until(lambda: owl.action_of(owl.snap()["prompt"]) == "vote.cast", 30, "the vote")
        choosable = [tile["seat"] for tile in owl.snap()["tiles"] if tile["choosable"]]
        assert seat[nominee_mason.name] not in choosable and seat[wolf.name] in choosable
        for phone in living:
            target = seat[girl.name] if phone is wolf else seat[wolf.name]
            wait_until(lambda p=phone: p.action_of(p.snap()["prompt"]) == "vote.cast", 10, "vote prompt")
            phone.choose([target], phone.t("btn.confirm"))

        # --- the stake: the nominee and the wolf
        wait_until(lambda: owl.action_of(owl.snap()["prompt"]) == "stake.cast", 20, "the stake")
        choosable = sorted(tile["seat"] for tile in owl.snap()["tiles"] if tile["choosable"])
        assert choosable == sorted([seat[nominee_mason.name], seat[wolf.name]])
        both_languages(owl, "07-stake")
        owl.small_shot("07b-stake-320x640")
        for phone in living:
            wait_until(lambda p=phone: p.action_of(p.snap()["prompt"]) == "stake.cast", 10, "stake prompt")
            target = seat[nominee_mason.name] if phone is wolf else seat[wolf.name]
            phone.choose([target], phone.t("btn.confirm"))

        # --- the end: the village wins, the timeline tells the night's secrets
        wait_until(lambda: host.snap()["end"], 30, "the end")
        end = host.snap()["end"]
        assert end["title"] == t("winner.village")
        timeline = " ".join(end["timeline"])
        assert t("tl.owl_designate", name=nominee_mason.name) in timeline
        assert t("tl.little_girl_open", name=girl.name) in timeline
        assert t("tl.owl_nominee", name=nominee_mason.name) in timeline
        host.page.locator("#timeline").scroll_into_view_if_needed()
        both_languages(host, "08-end-timeline",
                       before_shot=lambda: host.page.locator("#timeline").scroll_into_view_if_needed())
        host.page.locator("#timeline").scroll_into_view_if_needed()
        assert not errors, errors
    finally:
        for phone in phones:
            if not phone.closed:
                phone.context.close()
