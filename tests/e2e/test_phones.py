"""Six (then eight) phones play a whole game in Chromium, only by tapping what they see.

Each phone reads its own card, narration, prompt, tiles and chat from its screen and acts
on them; the test is the people around the table. Their strategy uses only what each
screen shows and what is said in the chat (a Seer volunteers for Captain, a Hunter asks to
be voted out, the first wolf names the prey in the wolves' channel...), so a random deal
still walks through Cupid, the Seer, the wolves, the Witch, the election, the Captain's
double vote and tie-break, the Hunter or a succession, chat by day and by night, the dead,
a reload, a phone that goes away and comes back, and the end screen.
"""
import re
import time

import pytest
from phonekit import Phone, wait_until

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid", "Gaëlle", "Hugo"]
NIGHT_STEPS = ("cupid", "seer", "werewolves", "witch")
GAME_TIMEOUT = 480  # seconds of play before the test gives up (a game takes 45-165 s, the slower on a slow machine)


@pytest.fixture
def phones(browser, server, screenshots):
    errors: list[str] = []
    made: list[Phone] = []

    def make(n):
        for name in NAMES[:n]:
            made.append(Phone(browser, server.url, name, screenshots, errors))
        return made

    yield make, errors
    for phone in made:
        if not phone.closed:
            phone.context.close()


# ------------------------------------------------------------------ lobby

def seat_everyone(phones, remove_role: str) -> str:
    """Register, create a table, join it by link and by code, remove a role, start."""
    host, others = phones[0], phones[1:]
    host.register()
    host.page.wait_for_selector("#create-form")
    host.shot("01-home")
    code = host.create_table("Table des tests")
    link = host.page.locator("#share-url").input_value()
    assert link.endswith("/t/" + code)

    for i, phone in enumerate(others):
        if i % 2 == 0:  # opens the shared link, has no account yet: registers and sits in one step
            phone.goto(link)
            phone.page.wait_for_url(re.compile(r"/register\?table=" + code + "$"))
            assert "Table des tests" in phone.page.locator("#invite").inner_text()
            if i == 0:
                phone.shot("02-join-by-link")
            phone.register(next_path=link)
            phone.page.wait_for_url(re.compile(r"/t/" + code + "$"))
        else:  # registers, then types the short code
            phone.register()
            phone.join_by_code(code)
        phone.page.wait_for_selector("#lobby:not([hidden])")

    n = len(phones)
    host.page.wait_for_function("n => document.querySelectorAll('#seats > li').length === n", arg=n)
    host.shot("03-table-lobby-host", full_page=True)
    others[-1].page.wait_for_function("n => document.querySelectorAll('#seats > li').length === n", arg=n)
    others[-1].shot("04-table-lobby-guest", full_page=True)

    # The host removes one optional role; every seated phone sees it go from the summary.
    role_label = host.t("role." + remove_role)
    box = host.page.locator(f"#settings input[name=role][value={remove_role}]")
    assert box.is_checked()
    with host.page.expect_response(lambda r: "/settings" in r.url):
        host.page.locator("#settings label.toggle").filter(
            has=host.page.locator(f"input[value={remove_role}]")).tap()
    assert not box.is_checked()
    for phone in others:
        phone.page.wait_for_function(
            "label => !document.getElementById('settings-summary').textContent.includes(label)",
            arg=role_label, timeout=10_000)

    start = host.page.locator("#start-btn")
    assert start.is_enabled()
    start.tap()
    for phone in phones:
        phone.page.wait_for_selector("#game:not([hidden])", timeout=15_000)
        phone.page.wait_for_function("document.getElementById('phase').textContent.length > 0")
    return link


# ------------------------------------------------------------------ the people at the table

class Table:
    """The game as played by the phones; subclasses pick the strategy."""

    def __init__(self, phones, errors, link):
        self.phones, self.errors, self.link = phones, errors, link
        self.p0 = phones[0]
        self.seen = {}             # phone -> last snap
        self.wolf_lines = []       # everything written in the wolves' channel
        self.dead_lines = []       # everything written in the dead channel
        self.log = []              # what happened, for the failure message
        self.covered = set()
        self.hold_debate = False
        self.by_name = {}
        self.started = time.monotonic()
        t = self.p0.t
        self.step_names = {t("step." + s, name="").split("(")[0].strip(): s for s in
                           ("cupid", "seer", "werewolves", "witch", "dawn", "hunter", "succession",
                            "election", "debate", "vote", "tiebreak")}

    # ---- reading

    def step_id(self, snap) -> str | None:
        text = snap.get("step") or ""
        for prefix, step in self.step_names.items():
            if text.startswith(prefix):
                return step
        return None

    def day_of(self, snap) -> str:
        return snap.get("phase") or ""

    @staticmethod
    def living(snap):
        return [t["seat"] for t in snap["tiles"] if t["alive"]]

    @staticmethod
    def me(snap):
        return next(t for t in snap["tiles"] if t["me"])

    @staticmethod
    def captain(snap):
        return next((t["seat"] for t in snap["tiles"] if t["captain"] and t["alive"]), None)

    @staticmethod
    def choosable(snap):
        return [t["seat"] for t in snap["tiles"] if t["choosable"]]

    def seat_of(self, snap, name):
        return next(t["seat"] for t in snap["tiles"] if t["name"] == name)

    def name_of(self, snap, seat):
        return next(t["name"] for t in snap["tiles"] if t["seat"] == seat)

    def note(self, text):
        self.log.append(f"{time.monotonic() - self.started:6.1f}s {text}")

    # ---- the loop

    def play(self):
        deadline = time.monotonic() + GAME_TIMEOUT
        while True:
            assert time.monotonic() < deadline, "the game did not end in time:\n" + "\n".join(self.log)
            assert not self.errors, "\n".join(self.errors + self.log[-30:])
            snaps = {}
            for phone in self.phones:
                if phone.closed:
                    continue
                snap = phone.snap()
                self.check(phone, snap)
                snaps[phone] = snap
                self.seen[phone] = snap
            if all(s.get("end") for s in snaps.values()) and len(snaps) == len(self.phones):
                break
            self.hooks(snaps)
            # Those asked to act go first (a picture and an accessibility audit take seconds on
            # a slow machine: taken for everyone first, they let a step end before its actors
            # acted); then, in a round where nobody acted (an act may call for another, the
            # Witch's poison), at most one new picture and one card read of the others.
            actors = [p for p, s in snaps.items() if not p.closed and s.get("prompt")]
            done_before = sum(len(p.done) for p in actors)
            for phone in actors:
                self.screens(phone, snaps[phone])
                self.decide(phone, phone.snap())  # fresh: the others may just have acted
            if sum(len(p.done) for p in actors) > done_before:
                continue
            for phone, snap in snaps.items():
                if phone not in actors and not phone.closed and self.screens(phone, snap):
                    break
            # (not while a moment or the end covers the card: it may come late on a slow machine)
            unread = [p for p in snaps if p.role is None and not p.closed and p.page.locator("#cardface").is_visible()]
            if unread:
                self.look_at_card(unread[0])
            time.sleep(0.1)
        self.note("ended")
        assert not self.errors, "\n".join(self.errors)

    def look_at_card(self, phone):
        """Turn my card over, read it and what it lets me see on the tiles, hide it."""
        phone.read_card()
        snap = phone.snap()
        phone.memory["known"] = {t["seat"]: phone.role_of_name(t["role"].split(" ", 1)[1])
                                 for t in snap["tiles"] if t["role"]}
        phone.memory["seat"] = self.me(snap)["seat"]
        phone.memory["known"][phone.memory["seat"]] = phone.role
        phone.shot(f"10-card-{phone.role}")
        phone.hide_card()
        self.note(f"{phone.name} is {phone.role}")

    def check(self, phone, snap):
        """What must hold on every screen at every moment."""
        if snap["section"] != "game":
            return
        assert not snap["banner"], f"{phone.name}: {snap['banner']}"
        if snap["prompt"]:
            assert not snap["prompt"]["error"], f"{phone.name}: {snap['prompt']['error']}"
        step = self.step_id(snap)
        if step in NIGHT_STEPS:
            assert snap["night"], f"{phone.name}: night step {step} drawn as day"
        elif step:
            assert not snap["night"], f"{phone.name}: day step {step} drawn as night"
        self.check_moment(phone, snap, step)
        if snap["end"]:
            return
        # Whether or not the phone has read its card yet: on a busy machine a lover's phone may
        # read it a night later, when Cupid's news has left the screen (CI saw it once).
        if getattr(self, "lovers", None) and phone.name in self.lovers and "lover" not in phone.memory:
            partner = next(n for n in self.lovers if n != phone.name)
            if phone.t("ev.lover", name=partner) in snap["events"]:
                phone.memory["lover"] = partner
                phone.shot("24-lover-view")
                self.covered.add("lover-view")
        if phone.role is None:
            return
        wolves_tab = phone.t("channel.werewolves")
        if phone.role != "werewolf":
            assert wolves_tab not in [t["label"] for t in snap["tabs"]], f"{phone.name} sees the wolves' tab"
            for line in self.wolf_lines:
                assert line not in snap["bodyText"], f"{phone.name} reads the wolves: {line}"
        if self.me(snap)["alive"]:
            for line in self.dead_lines:
                assert line not in snap["bodyText"], f"{phone.name} (alive) reads the dead: {line}"

    def check_moment(self, phone, snap, step):
        """The news of the turn takes the top of the first screen: the night's dead with their
        card at dawn, the village's vote with the eliminated player's name."""
        moment = snap["moment"]
        dead = [t for t in snap["tiles"] if not t["alive"]]
        if step == "dawn":
            assert moment and moment["onFirstScreen"], f"{phone.name}: no moment at dawn"
            died = [t for t in dead if t["name"] in moment["text"]]
            assert died or phone.t("ev.deaths_none") in moment["text"], (phone.name, moment)
            for tile in died:
                assert tile["role"].split(" ", 1)[1] in moment["text"], (phone.name, tile, moment)
            if died and "dawn-moment" not in self.covered:
                self.covered.add("dawn-moment")
                phone.shot("35-dawn-moment")
        if moment:
            m = phone.pattern("ev.vote_result").match(moment["title"])
            if m:
                assert m["name"] in [t["name"] for t in dead], (phone.name, moment)
                assert moment["onFirstScreen"], moment
                if "vote-moment" not in self.covered:
                    self.covered.add("vote-moment")
                    phone.shot("36-vote-moment")

    def screens(self, phone, snap) -> bool:
        """The picture of this moment of the game on this phone; True if it was a new one."""
        step = self.step_id(snap)
        if snap["section"] != "game" or not step or snap["end"] or phone.role is None:
            return False
        alive = self.me(snap)["alive"]
        if step in NIGHT_STEPS:
            name = f"20-night-{step}-{phone.role}" if snap["prompt"] else f"20-night-sleeps-{phone.role}"
        else:
            name = f"30-day-{step}" + ("-prompt" if snap["prompt"] else "")
        if not alive:
            name = "40-dead-" + step
        return phone.shot(name)

    def decide(self, phone, snap):
        if snap["section"] != "game" or snap["end"] or not snap["prompt"]:
            return
        action = phone.action_of(snap["prompt"])
        getattr(self, "on_" + action.replace(".", "_"))(phone, snap, (snap["phase"], snap["step"]))

    def once(self, phone, key, what) -> bool:
        """True the first time ``what`` is done by ``phone`` in this step."""
        mark = key + (what,)
        if mark in phone.done:
            return False
        phone.done.add(mark)
        return True

    def choose(self, phone, snap, seats, what):
        names = [self.name_of(snap, s) for s in seats]
        self.note(f"{phone.name} ({phone.role}) {what} {names}")
        phone.tap_tiles(seats)
        phone.tap_button(phone.t("btn.confirm"))

    # ---- hooks every round (subclasses)

    def hooks(self, snaps):
        pass

    # ---- the roles

    def on_cupid_pair(self, phone, snap, key):
        if not self.once(phone, key, "pair"):
            return
        me = self.me(snap)["seat"]
        pair = sorted(s for s in self.choosable(snap) if s != me)[-2:]
        phone.tap_tiles(pair)
        phone.shot("21-night-cupid-chosen")
        phone.tap_button(phone.t("btn.confirm"))
        self.lovers = [self.name_of(snap, s) for s in pair]
        self.note(f"Cupid {phone.name} pairs {self.lovers}")
        self.covered.add("cupid")

    def on_seer_look(self, phone, snap, key):
        if not self.once(phone, key, "look"):
            return
        looked = phone.memory.setdefault("looked", {})
        target = min(s for s in self.choosable(snap) if s not in looked)
        self.choose(phone, snap, [target], "looks at")
        pattern = phone.pattern("ev.seer_look")
        name = self.name_of(snap, target)

        def learned():
            for line in phone.snap()["events"]:
                m = pattern.match(line)
                if m and m["name"] == name:
                    return m["role"]
        role = wait_until(learned, 10, "the Seer's look in her announcements")
        looked[target] = phone.role_of_name(role)
        phone.memory.setdefault("known", {})[target] = looked[target]
        phone.shot("22-night-seer-learned")
        self.note(f"Seer sees {name} = {looked[target]}")
        self.covered.add("seer")

    def wolf_prey(self, phone, snap) -> int:
        known = phone.memory.setdefault("known", {})
        return min(s for s in self.choosable(snap) if known.get(s) != "werewolf")

    def on_werewolves_designate(self, phone, snap, key):
        if phone.role is None:
            self.look_at_card(phone)
        known = phone.memory.setdefault("known", {})
        wolves = sorted(s for s, r in known.items() if r == "werewolf" and
                        next(t for t in snap["tiles"] if t["seat"] == s)["alive"])
        me = self.me(snap)["seat"]
        leader = wolves[0] if wolves else me
        if me == leader:
            if not self.once(phone, key, "designate"):
                return
            prey = self.wolf_prey(phone, snap)
            line = f"🌙 {snap['phase']} — on prend {self.name_of(snap, prey)}"
            phone.say(line)
            self.wolf_lines.append(line)
            self.covered.add("wolves-chat")
        else:
            # follow the leader's word in our channel
            line = next((m["text"] for m in reversed(snap["messages"])
                         if m["text"].startswith(f"🌙 {snap['phase']} — on prend ")), None)
            if line is None or not self.once(phone, key, "designate"):
                return
            prey = self.seat_of(snap, line.rsplit(" on prend ", 1)[1])
            self.covered.add("wolves-agree")
        self.choose(phone, snap, [prey], "designates")

    def witch_plan(self, phone, snap) -> tuple[bool, int | None]:
        """(save the victim?, poison whom?) — subclasses decide."""
        return False, None

    def on_witch(self, phone, snap, key):
        buttons = [b["text"] for b in snap["prompt"]["buttons"]]
        save, poison = self.witch_plan(phone, snap)
        save_button = next((b for b in buttons if b.startswith("🧪")), None)
        poison_button = next((b for b in buttons if b.startswith("☠️")), None)
        if save and save_button and self.once(phone, key, "save"):
            phone.shot("23-night-witch")
            self.note(f"Witch {phone.name}: {save_button}")
            phone.tap_button(save_button)
            self.covered.add("witch-save")
        elif poison and poison_button and self.once(phone, key, "poison-open"):
            phone.shot("23-night-witch")
            phone.tap_button(poison_button, expect_act=False)
            phone.page.wait_for_function(
                "t => document.getElementById('prompt-title').textContent === t", arg=phone.t("prompt.witch.poison"))
        elif self.once(phone, key, "done"):
            phone.shot("23-night-witch")
            phone.tap_button(phone.t("btn.done"))

    def on_witch_poison(self, phone, snap, key):
        if not self.once(phone, key, "poison"):
            return
        _, target = self.witch_plan(phone, snap)
        self.choose(phone, snap, [target], "poisons")
        self.covered.add("witch-poison")

    def on_election_vote(self, phone, snap, key):
        marker = "votez pour moi comme Capitaine"
        if phone.role == "seer" and self.once(phone, key, "volunteer"):
            phone.say(f"Je suis la Voyante : {marker} !")
            self.note(f"{phone.name} volunteers for Captain")
            self.covered.add("village-chat")
            return
        if (snap["phase"], "election-start") not in phone.done:
            phone.done.add((snap["phase"], "election-start"))
            phone.memory["election_since"] = time.monotonic()
        volunteer = next((m["author"] for m in snap["messages"] if marker in m["text"]), None)
        if volunteer is None and time.monotonic() - phone.memory["election_since"] < 8:
            return  # listen a little before voting
        if not self.once(phone, key, "vote"):
            return
        target = self.seat_of(snap, volunteer) if volunteer else min(self.living(snap))
        if target not in self.choosable(snap):
            target = min(self.choosable(snap))
        self.choose(phone, snap, [target], "elects")
        self.covered.add("election")

    def day_line(self, phone, snap) -> str:
        return f"{snap['phase']} : bonjour, ici {phone.name}"

    def talk(self, phone, snap, key, mark: str = "talk") -> None:
        """Say my day line, once per step and ``mark``."""
        if self.once(phone, key, mark):
            phone.say(self.day_line(phone, snap))
            self.covered.add("village-chat")

    def on_debate_request_vote(self, phone, snap, key):
        self.talk(phone, snap, key)
        if self.hold_debate:
            return
        # everyone connected speaks before anyone asks for the vote
        spoken = {m["author"] for m in snap["messages"] if m["text"].startswith(snap["phase"] + " :")}
        present = {t["name"] for t in snap["tiles"] if t["alive"] and not t["off"]}
        if not present <= spoken:
            return
        # just enough players ask (more than half of the living), the first ones by seat:
        # one more would tap as the debate ends, and be told it is too late
        living = self.living(snap)
        if living.index(self.me(snap)["seat"]) >= len(living) // 2 + 1:
            return
        if self.once(phone, key, "request"):
            self.note(f"{phone.name} asks for the vote")
            phone.tap_button(phone.t("btn.request_vote"))

    def vote_plan(self, phone, snap) -> int | None | bool:
        """Whom I vote for (None: abstain; False: not yet)."""
        living = self.living(snap)
        me = self.me(snap)["seat"]
        first = min(living)
        return first if me != first else min(s for s in living if s != me)

    def on_vote_cast(self, phone, snap, key):
        if key + ("vote",) in phone.done:
            return
        target = self.vote_plan(phone, snap)
        if target is False:
            return
        phone.done.add(key + ("vote",))
        if target is None:
            self.note(f"{phone.name} abstains")
            phone.tap_button(phone.t("btn.abstain"))
        else:
            self.choose(phone, snap, [target], "votes against")

    def on_tiebreak_choose(self, phone, snap, key):
        if not self.once(phone, key, "tiebreak"):
            return
        tied = self.choosable(snap)
        known = phone.memory.setdefault("known", {})
        # a Captain who knows a card keeps a known wolf alive a little longer (the test
        # wants a long game) and sends a known innocent; otherwise the first of the tied
        innocents = [s for s in tied if s in known and known[s] != "werewolf"]
        wolves = [s for s in tied if known.get(s) == "werewolf"]
        others = [s for s in tied if s not in wolves]
        target = innocents[0] if innocents else (others[0] if others else tied[0])
        phone.shot("31-day-tiebreak-captain")
        self.choose(phone, snap, [target], "breaks the tie against")
        self.covered.add("tiebreak")

    def on_hunter_shoot(self, phone, snap, key):
        # The vote's moment shows during the step after the vote: a Hunter voted out who shot at
        # once ended that step before the other phones' next poll. He waits up to 4 s of his
        # 15 s or more for some phone to have shown it.
        first_seen = phone.memory.setdefault(("hunter prompt",) + key, time.monotonic())
        if "vote-moment" not in self.covered and time.monotonic() - first_seen < 4:
            return
        if not self.once(phone, key, "shoot"):
            return
        phone.shot("41-hunter-shoots")
        self.choose(phone, snap, [self.shot_at(snap)], "shoots")
        self.covered.add("hunter")

    def shot_at(self, snap):
        return min(self.choosable(snap))

    def on_succession_name(self, phone, snap, key):
        if not self.once(phone, key, "succession"):
            return
        phone.shot("42-captain-succession")
        self.choose(phone, snap, [min(self.choosable(snap))], "names as Captain")
        self.covered.add("succession")

    # ---- shared checks

    def dead_speak(self, snaps):
        """A dead player writes once in the dead channel."""
        for phone, snap in snaps.items():
            if snap["section"] == "game" and not snap["end"] and not self.me(snap)["alive"] \
                    and snap["canWrite"] and not self.dead_lines:
                line = f"{phone.name} hante le village"
                phone.say(line)
                self.dead_lines.append(line)
                self.covered.add("dead-chat")

    def reload_check(self, phone):
        before = phone.snap()
        phone.reload()
        wait_until(lambda: phone.snap().get("phase"), 10, "the page after a reload")
        after = phone.snap()
        for field in ("phase", "step"):
            assert after[field] == before[field], (field, before[field], after[field])
        assert (after["prompt"] or {}).get("title") == (before["prompt"] or {}).get("title")
        assert [(t["seat"], t["name"], t["alive"], t["captain"], t["role"]) for t in after["tiles"]] == \
               [(t["seat"], t["name"], t["alive"], t["captain"], t["role"]) for t in before["tiles"]]
        role = phone.role
        assert phone.read_card() == role
        phone.hide_card()
        self.note(f"{phone.name} reloaded: same {after['phase']} / {after['step']}")
        self.covered.add("reload")

    def end_checks(self):
        for phone in self.phones:
            snap = phone.snap()
            end = snap["end"]
            assert end and end["title"], phone.name
            assert all(t["role"] for t in snap["tiles"]), f"{phone.name}: a card is hidden at the end"
            labels = [t["label"] for t in snap["tabs"]]
            assert phone.t("channel.village") in labels and phone.t("channel.werewolves") in labels, labels
        villager = next(p for p in self.phones if p.role != "werewolf")
        villager.page.locator("#end").scroll_into_view_if_needed()
        villager.shot("50-end", full_page=True)
        villager.open_tab(villager.t("channel.werewolves"))
        text = villager.page.locator("#messages").inner_text()
        for line in self.wolf_lines:
            assert line in text, f"the wolves' line {line!r} is not shown at the end"
        villager.page.locator("#chat").scroll_into_view_if_needed()
        villager.shot("51-end-wolves-channel")
        if self.dead_lines:
            villager.open_tab(villager.t("channel.dead"))
            text = villager.page.locator("#messages").inner_text()
            assert all(line in text for line in self.dead_lines)
        wolf = next(p for p in self.phones if p.role == "werewolf")
        wolf.page.locator("#end").scroll_into_view_if_needed()
        wolf.shot("52-end-wolf")
        timeline = villager.snap()["end"]["timeline"]
        self.note("end: " + villager.snap()["end"]["title"])
        return timeline


class SixPlayers(Table):
    """No Hunter: the Seer volunteers as Captain, the Captain breaks a tie on day 1, the
    wolves eat the Captain on night 2 and she names a successor."""

    def witch_plan(self, phone, snap):
        return snap["phase"] == phone.t("night_n", n=1), None

    def wolf_prey(self, phone, snap):
        captain = self.captain(snap)
        known = phone.memory.setdefault("known", {})
        if captain and captain in self.choosable(snap) and known.get(captain) != "werewolf":
            return captain
        return super().wolf_prey(phone, snap)

    def vote_plan(self, phone, snap):
        captain = self.captain(snap)
        me = self.me(snap)["seat"]
        if snap["phase"] != phone.t("day", n=1) or not captain:
            return super().vote_plan(phone, snap)
        others = sorted(s for s in self.living(snap) if s != captain)
        a, b = others[0], others[1]
        if me == captain:
            return a                       # counts twice
        # the others wait for the Captain's vote to show on their screen, twice
        tile = next(t for t in snap["tiles"] if t["seat"] == a)
        if tile["votes"] != phone.t("votes_n.other", count=2):
            return False
        if "double-vote" not in self.covered:
            self.covered.add("double-vote")
            phone.shot("33-day-vote-captain-counts-twice")
        if me in others[2:4]:
            return b                       # two plain votes: a tie, 2 against 2
        return None

    def hooks(self, snaps):
        self.dead_speak(snaps)
        day1 = self.p0.t("day", n=1)
        debate = [(p, s) for p, s in snaps.items() if s.get("phase") == day1 and self.step_id(s) == "debate"]
        if debate and "reload" not in self.covered and len(debate) == len(snaps):
            self.hold_debate = True
            phone = next(p for p, s in debate if s["prompt"])
            self.reload_check(phone)
            # another phone goes away during the debate, the others see it disconnected
            gone = next(p for p, s in debate if p is not phone and not self.me(s)["captain"])
            self.gone = gone
            self.gone_state = gone.close()
            self.note(f"{gone.name} closes the page")
            watcher = next(p for p in self.phones if p not in (phone, gone))
            wait_until(lambda: next(t for t in watcher.snap()["tiles"] if t["name"] == gone.name)["off"],
                       40, f"{gone.name} shown disconnected")
            watcher.shot("32-day-someone-disconnected")
            self.covered.add("disconnected")
            gone.open(self.gone_state)
            gone.goto(self.link)
            gone.page.wait_for_selector("#game:not([hidden])")
            wait_until(lambda: gone.snap().get("phase"), 10, "the phone back")
            back = gone.snap()
            assert back["phase"] == day1 and self.step_id(back) == "debate", (back["phase"], back["step"])
            self.note(f"{gone.name} is back in {back['phase']} / {back['step']}")
            wait_until(lambda: not next(t for t in watcher.snap()["tiles"] if t["name"] == gone.name)["off"],
                       10, f"{gone.name} shown connected again")
            self.covered.add("back")
            self.hold_debate = False


class EightPlayers(Table):
    """No Cupid: two wolves agree in their channel, the Witch lets the victim die and
    poisons, the Hunter asks the village to vote him out and shoots."""

    def witch_plan(self, phone, snap):
        me = self.me(snap)["seat"]
        candidates = [s for s in self.living(snap) if s != me]
        victim_line = snap["prompt"]["info"]
        victim = next((t["seat"] for t in snap["tiles"] if t["name"] and t["name"] in victim_line), None)
        candidates = self.no_known_wolf(snap, [s for s in candidates if s != victim])
        return False, (max(candidates) if snap["phase"] == phone.t("night_n", n=1) and candidates else None)

    def no_known_wolf(self, snap, seats):
        """``seats`` but those a phone read to be a wolf's: a poison, or the shot of a Hunter
        killed at night, must not end the game before the village's vote (the deal is random)."""
        wolves = {p.name for p in self.phones if p.role == "werewolf"}
        return [s for s in seats if self.name_of(snap, s) not in wolves] or seats

    def shot_at(self, snap):
        choosable = self.choosable(snap)
        return min(choosable if "vote-moment" in self.covered else self.no_known_wolf(snap, choosable))

    def day_line(self, phone, snap):
        if phone.role == "hunter" and snap["phase"] == phone.t("day", n=1):
            return f"{snap['phase']} : je suis le Chasseur, votez contre moi !"
        return super().day_line(phone, snap)

    def on_debate_request_vote(self, phone, snap, key):
        # Day 1: nobody asks for the vote before the living Hunter's claim is read (a slow
        # phone shown as gone would otherwise not be waited for, and the vote would miss him).
        day_1 = snap["phase"] == phone.t("day", n=1)
        if day_1 and phone.role == "hunter":
            self.talk(phone, snap, key, "claim")  # also when this phone first spoke before it read its card
            phone.done.add(key + ("talk",))
        hunter = next((p.name for p in self.phones if p.role == "hunter"), None)
        living = {t["name"] for t in snap["tiles"] if t["alive"]}
        claimed = any("je suis le Chasseur" in m["text"] for m in snap["messages"])
        unread = any(p.role is None and p.name in living for p in self.phones)   # the Hunter may be one
        if day_1 and phone.role != "hunter" and (unread or hunter in living) and not claimed:
            self.talk(phone, snap, key)
            return
        super().on_debate_request_vote(phone, snap, key)

    def vote_plan(self, phone, snap):
        claim = next((m["author"] for m in snap["messages"] if "je suis le Chasseur" in m["text"]), None)
        me = self.me(snap)["seat"]
        if claim and snap["phase"] == phone.t("day", n=1):
            hunter = self.seat_of(snap, claim)
            if hunter in self.living(snap):
                return hunter if hunter != me else min(s for s in self.living(snap) if s != me)
        return super().vote_plan(phone, snap)

    def hooks(self, snaps):
        self.dead_speak(snaps)


def test_six_phones_play_a_whole_game(phones):
    make, errors = phones
    players = make(6)
    link = seat_everyone(players, remove_role="hunter")
    table = SixPlayers(players, errors, link)
    table.play()
    timeline = table.end_checks()
    print("\n".join(table.log))
    for must in ("cupid", "lover-view", "seer", "wolves-chat", "witch-save", "election", "village-chat",
                 "double-vote", "tiebreak", "reload", "disconnected", "back"):
        assert must in table.covered, f"{must} not covered ({sorted(table.covered)}):\n" + "\n".join(table.log)
    if "succession" not in table.covered:  # only when the Captain died in the game's last deaths
        end = players[0].snap()
        captain = next(t for t in end["tiles"] if t["captain"])
        assert not captain["alive"] and captain["name"] in timeline[-1], (timeline, table.log)
    t = players[0].t
    assert any(line.startswith(t("tl.cupid_pair", a="", b="").split(" ")[0]) for line in timeline), timeline
    for lover in (p for p in players if p.name in table.lovers):  # each read the other's name
        assert lover.memory.get("lover") == next(n for n in table.lovers if n != lover.name), lover.name


def test_eight_phones_play_a_whole_game(phones):
    make, errors = phones
    players = make(8)
    link = seat_everyone(players, remove_role="cupid")
    table = EightPlayers(players, errors, link)
    table.play()
    table.end_checks()
    print("\n".join(table.log))
    for must in ("seer", "wolves-chat", "wolves-agree", "witch-poison", "election", "village-chat",
                 "dawn-moment", "vote-moment"):
        assert must in table.covered, f"{must} not covered ({sorted(table.covered)}):\n" + "\n".join(table.log)
    assert "hunter" in table.covered, "\n".join(table.log)  # voted out on day 1, or shot at night
