"""The box's cards (RULES-BOX, issue 36) in two whole games on phones, played by tapping.

Every card of a game is dealt (as many cards as seats, only the seats are the server's draw).

1. Six phones in French, English and Chinese: the Angel, the Elder, the Village Idiot, the
   Scapegoat, the Pied Piper and a wolf. Day 0 (the Angel's): the village votes the Idiot out,
   he is pardoned, his card lies face up. Night 1: the wolf bites the Elder, who lives (his
   spare life); the Piper charms two, who see the circle on their card. Day 1: the Idiot
   may not vote (a tag), a tie takes the Scapegoat, who names the next day's voters (from 0
   to all). Night 2: the wolf devours the Idiot, the Piper charms the Elder: he wins.
2. Seven phones: the Wild Child, the Wolf-Hound, the Fox, the Accursed Wolf-Father, the Raven,
   the Rusty Sword Knight and a Villager. Night 1: the Child takes the Villager as his model,
   the Hound stays by the fire, the Fox smells the Wolf-Father, the pack devours the Knight
   (rusted: the Wolf-Father), the Wolf-Father does not infect, the Raven marks him. Day 1: his
   two votes are told under the count; the Wolf-Father is voted out: the village wins.

Each card's screens are shot (and audited by axe-core, as every Phone.shot) at 390x844 and
320x640, some in the three languages. Waits are on what the pages show, bounded by the step
limits set here (times WEREWOLF_TIME_SCALE).
"""
import os
import re

import pytest
from phonekit import (
    LocalePhone,
    in_every_language,
    norm,
    seat_everyone_by_code,
    show_card,
    start_and_read_cards,
    wait_until,
)

pytestmark = pytest.mark.e2e

SCALE = float(os.environ.get("E2E_TIME_SCALE", "0.5"))   # as tests/e2e/conftest.py
# Steps where a phone acts: long enough to look at; each ends as soon as its players acted.
LIMITS = {"debate": 120, "vote": 120, "werewolves": 120, "piper": 120, "scapegoat": 120, "dawn": 4,
          "wild_child": 120, "wolf_hound": 120, "fox": 120, "wolf_father": 120, "raven": 120}
OFF = {"seer": False, "witch": False, "hunter": False, "cupid": False}


def limit(step: str) -> float:
    return LIMITS[step] * SCALE + 10


def settle_settings(host, body: dict):
    """The host's settings, sent as the page sends them."""
    answer = host.page.evaluate(
        "body => WW.api('PATCH', `/api/tables/${document.getElementById('table').dataset.tableId}/settings`, body)",
        body)
    assert answer["ok"], answer


def title_is(phone, key: str) -> bool:
    return norm((phone.snap()["prompt"] or {}).get("title", "")) == norm(phone.t(key))


def wait_prompt(phone, key: str, step: str):
    wait_until(lambda: title_is(phone, key), limit(step), f"{phone.name}'s {key}")


def said(phone, key: str, text: str, **fields) -> bool:
    """Whether this text holds the phone's words for ``key``, its other {fields} anything."""
    parts = re.split(r"\{(\w+)\}", norm(phone.t(key)))
    regex = "".join(re.escape(p) if i % 2 == 0 else (re.escape(str(fields[p])) if p in fields else ".+?")
                    for i, p in enumerate(parts))
    return re.search(regex, norm(text)) is not None


def moment(phone) -> str:
    return (phone.snap()["moment"] or {}).get("text", "")


def debate_then_vote(phones, ballots: dict):
    """Four phones ask for the vote; then each ballot (phone -> phone voted, None: abstain)."""
    for phone in phones[:4]:
        wait_prompt(phone, "prompt.debate.request_vote", "debate")
        phone.tap_button(phone.t("btn.request_vote"))
    for phone, target in ballots.items():
        wait_prompt(phone, "prompt.vote.cast", "vote")
        if target is None:
            phone.tap_button(phone.t("btn.abstain"))
        else:
            phone.choose([target.seat], phone.t("btn.confirm"))


def close(phones):
    for phone in phones:
        if not phone.closed:
            phone.context.close()


# --- 1. the Angel's day 0, a pardoned Idiot, the Elder's spare life, a Scapegoat's tie, the Piper

LOCALES = ["fr-FR", "en-US", "zh-TW"]
NAMES_1 = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid"]


def test_day_0_a_pardon_a_spare_life_a_scapegoat_and_the_piper_s_win(browser, server, screenshots):
    errors: list[str] = []
    phones = [LocalePhone(browser, server.url, name, screenshots, errors, locale=LOCALES[i % 3])
              for i, name in enumerate(NAMES_1)]
    try:
        host = phones[0]
        seat_everyone_by_code(phones, "La boîte")
        settle_settings(host, {"roles": {**OFF, "angel": True, "elder": True, "village_idiot": True,
                                         "scapegoat": True, "piper": True}, "captain": False, "limits": LIMITS})
        by_role = start_and_read_cards(host, phones)
        assert set(by_role) == {"werewolf", "angel", "elder", "village_idiot", "scapegoat", "piper"}, by_role
        wolf, angel, elder, idiot, goat, piper = (by_role[r] for r in (
            "werewolf", "angel", "elder", "village_idiot", "scapegoat", "piper"))

        # --- day 0: the Angel's debate and vote; the village votes the Idiot out
        wait_until(lambda: host.snap()["phase"] == host.t("day", n=0), 15, "day 0")
        in_every_language(angel, "10-{lang}-angel-day-0", before_shot=lambda: show_card(angel))
        debate_then_vote(phones, {p: (idiot if p is not idiot else wolf) for p in phones})
        wait_until(lambda: said(host, "ev.idiot_pardoned", moment(host), name=idiot.name), limit("vote"),
                   "the pardon told")
        text = moment(host)
        assert said(host, "ev.vote_pardoned", text, name=idiot.name), text
        assert not said(host, "ev.vote_result", text, name=idiot.name), text   # a pardon, not "élimine"
        # His card lies face up for everyone, every other card face down.
        def idiot_tile():
            return next(t for t in wolf.snap()["tiles"] if t["seat"] == idiot.seat)
        wait_until(lambda: idiot_tile()["role"], 10, "the Idiot's card face up on the wolf's phone")
        assert idiot_tile()["alive"] and norm(wolf.t("role.village_idiot")) in norm(idiot_tile()["role"])
        assert not [t for t in wolf.snap()["tiles"] if t["role"] and t["seat"] != idiot.seat]
        wolf.shot("11-idiot-pardoned-face-up")
        wolf.small_shot("11b-idiot-pardoned-face-up-320x640")

        # --- night 1: the wolf bites the Elder; the Piper charms the wolf and the Angel
        wait_prompt(wolf, "prompt.werewolves.designate", "werewolves")
        wolf.choose([elder.seat], wolf.t("btn.confirm"))
        wait_prompt(piper, "prompt.piper.charm", "piper")
        assert norm(piper.snap()["prompt"]["info"]) == norm(piper.t("tap_players", count=2))
        piper.tap_tiles([wolf.seat, angel.seat])
        in_every_language(piper, "12-{lang}-piper-charm", before_shot=lambda: piper.tap_tiles([wolf.seat, angel.seat]))
        piper.tap_button(piper.t("btn.confirm"))
        # Dawn: nobody died, the Elder lives; the charmed see the circle on their card.
        wait_until(lambda: host.snap()["phase"] == host.t("day", n=1), limit("piper") + limit("dawn"), "day 1")
        assert all(t["alive"] for t in host.snap()["tiles"])
        show_card(angel)
        wait_until(lambda: said(angel, "ev.charmed", angel.snap()["card"]["extra"]), 10, "the circle on the card")
        extra = angel.snap()["card"]["extra"]
        assert wolf.name in extra and angel.name in extra and elder.name not in extra, extra
        in_every_language(angel, "13-{lang}-charmed-card", before_shot=lambda: show_card(angel))
        angel.hide_card()

        # --- day 1: the Idiot votes no more; a tie takes the Scapegoat
        debate_then_vote([wolf, piper, angel, elder], {})   # the debate: four ask for the vote
        wait_prompt(wolf, "prompt.vote.cast", "vote")
        wait_until(lambda: idiot.snap()["prompt"] is None, 10, "no ballot for the Idiot")
        for phone in (host, idiot):
            tag = phone.page.locator(f"#players > li[data-seat='{idiot.seat}'] .no-vote-tag")
            tag.wait_for(state="visible", timeout=10_000)
            assert norm(tag.inner_text()) == norm(phone.t("no_vote"))
        in_every_language(idiot, "14-{lang}-idiot-votes-no-more")
        for phone, target in ((wolf, angel), (piper, angel), (angel, wolf), (elder, wolf), (goat, None)):
            wait_prompt(phone, "prompt.vote.cast", "vote")
            if target is None:
                phone.tap_button(phone.t("btn.abstain"))
            else:
                phone.choose([target.seat], phone.t("btn.confirm"))
        # The Scapegoat, dead, names who votes tomorrow: from none to all the living.
        wait_prompt(goat, "prompt.scapegoat.voters", "scapegoat")
        wait_until(lambda: said(host, "ev.vote_scapegoat", moment(host), name=goat.name), 10, "the tie told")
        prompt = goat.snap()["prompt"]
        assert norm(prompt["info"]) == norm(goat.t("tap_players_range", min=0, max=5)), prompt
        assert not next(b for b in prompt["buttons"] if b["text"] == goat.t("btn.confirm"))["disabled"]
        goat.tap_tiles([elder.seat, angel.seat])
        in_every_language(goat, "15-{lang}-scapegoat-voters", before_shot=lambda: goat.tap_tiles([elder.seat, angel.seat]))
        goat.tap_button(goat.t("btn.confirm"))
        wait_until(lambda: any(said(host, "ev.scapegoat_voters", e) and elder.name in e and angel.name in e
                               for e in host.snap()["events"]), 10, "the voters told")

        # --- night 2: the wolf devours the Idiot, the Piper charms the Elder: he wins
        wait_prompt(wolf, "prompt.werewolves.designate", "werewolves")
        wolf.choose([idiot.seat], wolf.t("btn.confirm"))
        wait_prompt(piper, "prompt.piper.charm", "piper")
        assert {t["seat"] for t in piper.snap()["tiles"] if t["choosable"]} == {elder.seat, idiot.seat}
        piper.choose([elder.seat, idiot.seat], piper.t("btn.confirm"))
        for phone in phones:
            end = wait_until(lambda p=phone: p.snap()["end"], limit("piper"), f"the end on {phone.name}'s phone")
            assert norm(end["title"]) == norm(phone.t("winner.piper")) and piper.name in end["seats"], end
            timeline = " ".join(end["timeline"])
            assert said(phone, "tl.elder_life", timeline, name=elder.name), timeline
            assert said(phone, "tl.idiot_pardoned", timeline, name=idiot.name), timeline
            assert said(phone, "ev.vote_pardoned", timeline, name=idiot.name), timeline
            assert said(phone, "tl.piper_charm", timeline), timeline
        in_every_language(piper, "16-{lang}-piper-wins", full_page=True)
        assert not errors, errors
    finally:
        close(phones)


# --- 2. the Wild Child, the Wolf-Hound, the Fox, the Wolf-Father, the Raven, the Knight -------

NAMES_2 = ["Hugo", "Inès", "Jules", "Katia", "Léon", "Maya", "Noé"]


def test_a_model_a_dog_a_fox_a_father_a_raven_and_a_rusty_sword(browser, server, screenshots):
    errors: list[str] = []
    # French phones; the screens new to this box are also shot in English and Chinese.
    phones = [LocalePhone(browser, server.url, name, screenshots, errors, locale="fr-FR") for name in NAMES_2]
    try:
        host = phones[0]
        seat_everyone_by_code(phones, "La boîte 2")
        settle_settings(host, {"roles": {**OFF, "wild_child": True, "wolf_hound": True, "fox": True,
                                         "wolf_father": True, "raven": True, "knight": True},
                               "captain": False, "limits": LIMITS})
        by_role = start_and_read_cards(host, phones)
        assert set(by_role) == {"wolf_father", "wild_child", "wolf_hound", "fox", "raven", "knight", "villager"}
        father, child, hound, fox, raven, knight, villager = (by_role[r] for r in (
            "wolf_father", "wild_child", "wolf_hound", "fox", "raven", "knight", "villager"))

        # --- night 1
        wait_prompt(child, "prompt.wild_child.model", "wild_child")
        child.tap_tiles([villager.seat])
        child.shot("20-wild-child-model")
        child.small_shot("20b-wild-child-model-320x640")
        child.tap_button(child.t("btn.confirm"))
        wait_prompt(hound, "prompt.wolf_hound", "wolf_hound")
        in_every_language(hound, "21-{lang}-wolf-hound-choice")
        hound.tap_button(hound.t("btn.wolf_hound.village"), exact=False)   # after its picture
        wait_prompt(fox, "prompt.fox.sniff", "fox")
        fox.choose([father.seat], fox.t("btn.confirm"))
        wait_until(lambda: any(said(fox, "ev.fox_sniff_wolf", e) and father.name in e for e in fox.snap()["events"]),
                   10, "the fox's answer")
        fox.shot("22-fox-smells-a-wolf", full_page=True)   # his answer, in the night's announcements
        wait_prompt(father, "prompt.werewolves.designate", "werewolves")
        father.choose([knight.seat], father.t("btn.confirm"))
        wait_prompt(father, "prompt.wolf_father", "wolf_father")
        buttons = [b["text"] for b in father.snap()["prompt"]["buttons"]]
        assert [b for b in buttons if b.endswith(father.t("btn.wolf_father.infect"))], buttons
        assert [b for b in buttons if b.endswith(father.t("btn.wolf_father.done"))], buttons
        in_every_language(father, "23-{lang}-wolf-father-choice")
        father.tap_button(father.t("btn.wolf_father.done"), exact=False)
        wait_prompt(raven, "prompt.raven.mark", "raven")
        raven.choose([father.seat], raven.t("btn.confirm"))

        # --- day 1: the Knight is dead; the Raven's two votes, told under the count
        wait_until(lambda: host.snap()["phase"] == host.t("day", n=1), limit("raven") + limit("dawn"), "day 1")
        wait_until(lambda: said(host, "ev.raven_accused", moment(host), name=father.name), limit("dawn"),
                   "the raven's mark told")
        assert not next(t for t in host.snap()["tiles"] if t["seat"] == knight.seat)["alive"]
        host.shot("24-raven-accuses")
        host.small_shot("24b-raven-accuses-320x640")
        living = [p for p in phones if p is not knight]
        debate_then_vote(living, {child: father, hound: father, fox: father, father: fox, raven: None, villager: None})
        for phone in (host, child):
            end = wait_until(lambda p=phone: p.snap()["end"], limit("vote"), f"the end on {phone.name}'s phone")
            assert norm(end["title"]) == norm(phone.t("winner.village")), end
            timeline = " ".join(end["timeline"])
            assert said(phone, "ev.vote_raven", timeline, votes=2, name=father.name), timeline
            assert said(phone, "tl.knight_rust", timeline, name=father.name), timeline
            assert said(phone, "tl.wild_child_model", timeline, name=villager.name), timeline
            assert said(phone, "tl.wolf_hound_village", timeline), timeline
            assert said(phone, "tl.fox_sniff_wolf", timeline, name=father.name), timeline
        host.shot("25-village-wins", full_page=True)   # (the end in every language: the first game's)
        assert not errors, errors
    finally:
        close(phones)

