"""The secrecy audit: random complete games, every response checked.

    .venv/bin/python -m bench.audit --games 10000 [--seed 1] [--workers 2]   # the long run

Each game is played by real accounts through the JSON API (the Flask test client,
an injected clock: a time-out is the clock moved past the deadline, no sleeping), or
on the engine's own calls as the service makes them (EngineGame).
After every change each player's view is fetched, and every response (views,
accepted and refused actions, chat, errors) is checked against RULES.md §8 by an
oracle that reads the game's full state (from the database over HTTP) (roles, deaths, lovers,
the events and chat with their kinds) and decides on its own what each seat may
know. It never calls ``engine.views``.

Checked for every seat, at every step, while the game runs:
- roles: only one's own, the dead's, fellow wolves' for a wolf, the Seer's looks;
- events: exactly the ones this seat may know (public ones, one's own role's, the
  wolves' for a living wolf, a lover's partner), none of the night's secret causes;
- chat: exactly the channels one may read (no wolves' for others, no dead for the living);
- ``me``: own card, the lover only for lovers, potions only for the Witch,
  designations only for living wolves in their step, a prompt only for whoever acts;
- the raw JSON text and the headers of every response: no secret event kind, no
  message of an unreadable channel, no secret key, no ``audience``;
- players whose knowledge is the same get the same view (plain villagers and the
  Hunter, wolves, the dead), and the same refusal for the same refused request.
At the end everything must be revealed.

``mixed``: every card and option of the registry may be drawn (``mixed_settings``); a game
is played over HTTP, or (``engine``) on the engine's own calls, several times cheaper.
tests/web/test_audit.py plays over 500 mixed games in CI, most on the engine; a leak names
its game's seed, and ``replay(seed, ...)`` plays that game again. bench/audit.py is the
command line of the long run.
"""
from __future__ import annotations

import json
import os
import random
import re
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from types import SimpleNamespace

import orjson

from tests.kit.clock import Clock

PUBLIC_KINDS = {"game_start", "step", "deaths", "hunter_shot", "succession", "election_result",
                "vote_cast", "vote_request", "vote_result", "tiebreak", "game_end"}
# RULES-VARIANTS A5.1, A13: the ballots of a secret round are published to all at `tally`.
PUBLIC_KINDS |= {"ballots"}
PUBLIC_KINDS |= {"player_left"}  # RULES.md §9, UX.md: a player can leave; the table is told
# A0: the vote eliminations; with secret_ballot a ballot cast in one of them (A5.1) is
# the voter's only ("vote_cast goes to the voter only"), the election's stays public.
ELIMINATION_ROUNDS = ("vote", "revote", "runoff", "stake")
SEER_KINDS = {"seer_look"}
WOLF_KINDS = {"designation", "wolves_victim"}
WITCH_KINDS = {"witch_victim", "witch_save", "witch_poison"}
CUPID_KINDS = {"cupid_pair"}
LOVER_KINDS = {"lover"}
HIDDEN_KINDS = {"night_summary", "night_deaths", "cupid_silent", "testament"}  # nobody until the end
# RULES-VARIANTS A9.1, A13: the Guard learns his own choices only; the Thief alone is shown
# the middle and his swap; the living wolves are told the pack when a Thief joins it.
GUARD_KINDS = {"guard_protect"}
THIEF_KINDS = {"thief_cards", "thief_swap"}
WOLF_KINDS |= {"wolves_joined"}
# A3.8-A3.10, A4, A13: the bitten Cursed alone is told of his bite (the pack by wolves_joined);
# the Plague-Bearer alone knows whom he contaminated; a stalemate is public.
CURSED_KINDS = {"cursed_bitten"}
PLAGUE_KINDS = {"plague_infect", "contaminated"}
PUBLIC_KINDS |= {"stalemate"}
# A3.2, A3.5-A3.7, A9.1, A13: the Little Girl is told her own spying; a catch goes to her and the
# living wolves; the Owl-Man alone knows his night's name, everyone the nominee at dawn; each
# Freemason is told the other (or nobody); the Medium has no event of his own.
LITTLE_GIRL_KINDS = {"little_girl_spy"}
CAUGHT_KINDS = {"little_girl_caught"}
OWL_KINDS = {"owl_designate"}
MASON_KINDS = {"freemason"}
PUBLIC_KINDS |= {"owl_nominee"}
# RULES-BOX B9.1, B12: the Elder's revenge, a pardon, the Scapegoat's voters, the bear's growl
# are public; the Piper alone knows his charms, the Piper and each living charmed the circle
# (one `charmed` event each, addressed to one of them); the White Werewolf his prey; the Wild
# Child his model and his turn; the Fox his sniffs. The pack is told who joined (wolves_joined).
PUBLIC_KINDS |= {"elder_revenge", "idiot_pardoned", "scapegoat_voters", "bear_growl"}
PIPER_KINDS = {"piper_charm"}
CHARMED_KINDS = {"charmed"}
WHITE_KINDS = {"white_werewolf_devour"}
CHILD_KINDS = {"wild_child_model", "wild_child_turned"}
FOX_KINDS = {"fox_sniff"}
# RULES-BOX B9, B12-B13 (the Knight .. the Angel): the Raven alone knows his mark, everyone the
# accused at dawn; the Wolf-Father his infection, the infected that he is; the Wolf-Hound his
# choice (the pack by wolves_joined); each Sister / Brother the family; the rust: nobody until the end.
RAVEN_KINDS = {"raven_mark"}
FATHER_KINDS = {"wolf_father_infect"}
INFECTED_KINDS = {"infected"}
HOUND_KINDS = {"wolf_hound_choice"}
FAMILY_KINDS = {"sister", "brother"}
PUBLIC_KINDS |= {"raven_accused"}
HIDDEN_KINDS |= {"knight_rust"}
BOX_KINDS = (PIPER_KINDS | CHARMED_KINDS | WHITE_KINDS | CHILD_KINDS | FOX_KINDS
             | RAVEN_KINDS | FATHER_KINDS | INFECTED_KINDS | HOUND_KINDS | FAMILY_KINDS)
ALL_KINDS = (BOX_KINDS | PUBLIC_KINDS | SEER_KINDS | WOLF_KINDS | WITCH_KINDS | CUPID_KINDS | LOVER_KINDS | HIDDEN_KINDS
             | GUARD_KINDS | THIEF_KINDS | CURSED_KINDS | PLAGUE_KINDS | LITTLE_GIRL_KINDS | CAUGHT_KINDS
             | OWL_KINDS | MASON_KINDS)
ROLE_WORDS = ("werewolf", "villager", "seer", "witch", "hunter", "cupid", "guard", "thief",
              "possessed", "cursed", "jester", "plague_bearer", "little_girl", "owl_man", "freemason", "medium",
              "knight", "raven", "wolf_father", "sister", "brother", "wolf_hound", "angel")
NEW_ROLES = ("guard", "thief", "possessed", "cursed", "jester", "plague_bearer",
             "little_girl", "owl_man", "freemason", "medium")
# RULES-BOX's cards mixed in with them in the box's games (Audit(box=True)).
BOX_ROLES = ("elder", "village_idiot", "scapegoat", "piper", "white_werewolf", "wild_child", "fox", "bear_tamer",
             "knight", "raven", "wolf_father", "sister", "brother", "wolf_hound", "angel")
FAMILIES = {"sister": "sisters", "brother": "brothers"}   # B3.12: card -> its step and channel
# The wolf cards (RULES-BOX B0.3): their holders are of the pack, as the seats that joined it.
PACK_CARDS = ("werewolf", "white_werewolf", "wolf_father")
# Who knows nothing but his own card: their views are a plain villager's (A3.4, A3.8, A3.9).
PLAIN_ROLES = ("villager", "hunter", "possessed", "cursed", "jester", "elder", "bear_tamer", "knight", "angel")
# RULES-VARIANTS A7.1: during a fixed night's `night` step, every night role acts at once
# (the wolves, and these cards); A7.2: the lovers' channel is theirs alone, from the end of
# `cupid` (when they learn each other) to the end.
FIXED_NIGHT_ACTORS = {"seer", "guard", "owl_man", "plague_bearer", "little_girl", "fox", "piper", "raven"}
BASE_CHANNELS = ["village", "werewolves", "dead"]
NIGHT_STEPS = {"thief", "cupid", "wild_child", "wolf_hound", "sisters", "brothers", "seer", "fox", "guard", "owl",
               "plague", "werewolves", "wolf_father", "white_werewolf", "witch", "piper", "raven", "night"}
VARIANT_OPTIONS = ("fixed_night", "lovers_channel")   # drawn at random in the variants' games
# Neutral names: no role word, no channel name, no event kind inside.
NAMES = ["Ana", "Ben", "Cyd", "Dov", "Eli", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lou",
         "Max", "Ned", "Oly", "Pam", "Quy", "Rox"]


class Leak(AssertionError):
    pass


@dataclass
class Stats:
    games: int = 0
    requests: int = 0
    views_checked: int = 0
    refusals_compared: int = 0
    chats: int = 0
    steps: Counter = field(default_factory=Counter)
    roles: Counter = field(default_factory=Counter)
    winners: Counter = field(default_factory=Counter)
    sizes: Counter = field(default_factory=Counter)
    events: Counter = field(default_factory=Counter)   # event kinds of the finished games
    options: Counter = field(default_factory=Counter)  # "option=value" drawn, per game

    def line(self) -> str:
        return (f"{self.games} games, {self.requests} requests, {self.views_checked} views checked, "
                f"{self.refusals_compared} refusals compared, {self.chats} chat messages; "
                f"winners {dict(self.winners)}")


# ---------------------------------------------------------------- the oracle

class Truth:
    """What the full state says, and what seat ``s`` may know of it (RULES.md §8)."""

    def __init__(self, state: dict, thief: int | None = None, bitten: dict | None = None):
        self.state = state
        self.thief = thief  # the seat dealt the Thief card (whatever he holds now)
        # A bitten Cursed (a seat seen holding "cursed", now a werewolf) -> how many messages the
        # wolves' channel held when his bite was first seen: he reads it from there on (A3.8).
        self.bitten = bitten or {}
        self.ended = state["status"] == "ended"
        self.role = {p["seat"]: p["role"] for p in state["players"]}
        self.alive = {p["seat"]: p["alive"] for p in state["players"]}
        self.options = state["settings"].get("options", {})
        # The lovers know each other once Cupid's step is over (a fixed night's lasts after his choice).
        self.lovers = set(state.get("lovers") or []) if state["step"] != "cupid" else set()
        extra = state.get("extra", {})
        # RULES-BOX B0.3: the pack is the wolf cards' holders and the seats that joined it.
        self.joined = set(extra.get("pack", []))
        self.pack_chat = {int(s): n for s, n in extra.get("pack_chat", {}).items()}
        self.wolves = {s for s, r in self.role.items() if r in PACK_CARDS} | self.joined
        self.shown = set(extra.get("shown", []))          # a pardoned Idiot's card, to all
        self.powerless = set(extra.get("powerless", []))   # B6.1
        self.charmed = set(extra.get("piper", {}).get("charmed", []))
        self.charm_told = {e["audience"] for e in state["events"] if e["kind"] == "charmed"}
        self.flair = extra.get("fox", {}).get("flair", True)
        self.model = extra.get("wild_child", {}).get("model")
        self.pardoned = extra.get("village_idiot", {}).get("pardoned")
        goat = extra.get("scapegoat", {}).get("voters")
        self.goat_voters = set(goat["seats"]) if goat and goat["day"] == state["day"] else None
        self.step = state["step"]
        self.seer = next((s for s, r in self.role.items() if r == "seer"), None)
        options = state["settings"].get("options", {})
        self.secret = options.get("secret_ballot") is True
        self.seer_camp = options.get("seer_camp") is True
        self.testament = options.get("testament") is True
        self.tied = list(state.get("tied") or [])
        self.captain = state.get("captain")
        self.little_girl = next((s for s, r in self.role.items() if r == "little_girl"), None)
        self.caught = {e["seat"] for e in state["events"] if e["kind"] == "little_girl_caught"}
        self.caught_tonight = any(e["kind"] == "little_girl_caught" and e["night"] == state["night"]
                                  for e in state["events"])
        self.masons_told = any(e["kind"] == "freemason" for e in state["events"])
        self.in_deck = set(state["cards"])
        self.infected = ((extra.get("wolf_father") or {}).get("infected") or {}).get("seat")
        self.family_done = {card: set((extra.get(card) or {}).get("done", ())) for card in FAMILIES}

    def living_wolf(self, s: int) -> bool:
        return s in self.wolves and self.alive[s]

    def known_roles(self, s: int) -> set[int]:
        if self.ended:
            return set(self.role)
        known = {p for p, a in self.alive.items() if not a} | {s} | self.shown
        if s in self.wolves:
            known |= self.wolves
        if s == self.seer and not self.seer_camp:   # A6.1: the camp Seer never learns a card
            known |= {e["target"] for e in self.state["events"] if e["kind"] == "seer_look"}
        if self.living_wolf(s):
            known |= self.caught
        if self.role[s] == "freemason" and self.masons_told:
            known |= {p for p, r in self.role.items() if r == "freemason"}
        card = self.role[s]
        if card in FAMILIES and any(e["kind"] == card for e in self.state["events"]):   # B3.12: once told
            known |= {p for p, r in self.role.items() if r == card}
        return known

    def camps_known(self, s: int) -> set[int]:
        """A6.1, A9.1: the seats whose camp the camp Seer probed (players[].camp), hers only."""
        if s != self.seer or not self.seer_camp:
            return set()
        return {e["target"] for e in self.state["events"] if e["kind"] == "seer_look"}

    def secret_ballot(self, event: dict) -> bool:
        return self.secret and event["kind"] == "vote_cast" and event["step"] in ELIMINATION_ROUNDS

    def shown_role(self, s: int, p: int) -> str:
        """The card seat s sees for seat p: the Seer keeps what she saw when she looked at a
        living player (a Cursed bitten since is « Maudit » to her, A3.12); else the card now."""
        if not self.ended and p != s and self.alive[p] and self.role[s] == "seer":
            looks = [e["role"] for e in self.state["events"]
                     if e["kind"] == "seer_look" and e["target"] == p and "role" in e]
            if looks:
                return looks[-1]
        if not self.ended and p != s and self.alive[p] and s in self.wolves and p in self.wolves:
            return "werewolf"   # the pack face (RULES-BOX B0.3)
        return self.role[p]

    def voter(self, p: int) -> bool:
        """RULES-BOX B5.2: a pardoned Idiot votes no more; the Scapegoat's choice holds that day."""
        if not self.alive[p] or self.ended:
            return True
        if p == self.pardoned:
            return False
        day_step = self.step not in (None, "election") and not self.night_step()
        return self.goat_voters is None or not day_step or p in self.goat_voters

    def night_step(self) -> bool:
        return self.step in NIGHT_STEPS

    def may_see_event(self, s: int, event: dict) -> bool:
        kind = event["kind"]
        if kind not in ALL_KINDS:
            raise Leak(f"the oracle does not know the event kind {kind!r}: decide who may see it")
        if not self.ended and self.secret_ballot(event):
            return event["seat"] == s
        if self.ended or kind in PUBLIC_KINDS:
            return True
        if kind in SEER_KINDS:
            return self.role[s] == "seer"
        if kind in WOLF_KINDS:
            return self.living_wolf(s)
        if kind in WITCH_KINDS:
            return self.role[s] == "witch"
        if kind in CUPID_KINDS:
            return self.role[s] == "cupid"
        if kind in LOVER_KINDS:
            return s in self.lovers and event["partner"] != s
        if kind in GUARD_KINDS:
            return self.role[s] == "guard"
        if kind in THIEF_KINDS:
            return s == self.thief
        if kind in CURSED_KINDS:
            return s in self.bitten
        if kind in PLAGUE_KINDS:
            return self.role[s] == "plague_bearer"
        if kind in LITTLE_GIRL_KINDS:
            return s == self.little_girl
        if kind in CAUGHT_KINDS:
            return s == self.little_girl or self.living_wolf(s)
        if kind in OWL_KINDS:
            return self.role[s] == "owl_man"
        if kind in MASON_KINDS:
            return self.role[s] == "freemason" and event["partner"] != s
        if kind in PIPER_KINDS:
            return self.role[s] == "piper"
        if kind in CHARMED_KINDS:   # one event for each of them: the Piper, each living charmed
            return event["audience"] == s and (self.role[s] == "piper" or s in event["seats"])
        if kind in WHITE_KINDS:
            return self.role[s] == "white_werewolf"
        if kind in CHILD_KINDS:
            return self.role[s] == "wild_child"
        if kind in FOX_KINDS:
            return self.role[s] == "fox"
        if kind in RAVEN_KINDS:
            return self.role[s] == "raven"
        if kind in FATHER_KINDS:
            return self.role[s] == "wolf_father"
        if kind in INFECTED_KINDS:
            return s == self.infected
        if kind in HOUND_KINDS:
            return self.role[s] == "wolf_hound"
        if kind in FAMILY_KINDS:   # one event for each member, with the others' seats
            return self.role[s] == kind and s not in event["partners"]
        return False  # HIDDEN_KINDS

    def expected_events(self, s: int) -> list[dict]:
        """The events seat s may know, computed once per kind of seat (role, alive, lover)."""
        cache = self.__dict__.setdefault("_expected", {})
        key = (self.role[s], self.alive[s], s if s in self.lovers or self.secret or self.role[s] in ("freemason", *FAMILIES)
               or s in self.charm_told else None, s == self.thief, s in self.bitten, s in self.wolves, s == self.infected)
        if key not in cache:
            cache[key] = [_strip(e) for e in self.state["events"] if self.may_see_event(s, e)]
        return cache[key]

    def all_channels(self) -> list[str]:
        return (BASE_CHANNELS + (["lovers"] if self.options.get("lovers_channel") else [])
                + [channel for card, channel in FAMILIES.items() if card in self.in_deck])

    def channels(self, s: int) -> list[str]:
        if self.ended:
            return self.all_channels()
        out = ["village"]
        if self.living_wolf(s) or s == self.little_girl:   # hers: only what she overheard
            out.append("werewolves")
        if not self.alive[s] or (self.role[s] == "medium" and s not in self.powerless):   # B6.1: not powerless
            out.append("dead")
        if self.options.get("lovers_channel") and s in self.lovers:
            out.append("lovers")   # dead or alive: a dead lover keeps reading its history
        if self.role[s] in FAMILIES:
            out.append(FAMILIES[self.role[s]])   # B3.12: the family, dead or alive
        return out

    def family_actors(self, card: str) -> set[int]:
        """B3.12: on an odd night, until a card of the family is shown dead, its living members
        with their powers who have not closed their part."""
        members = {p for p, r in self.role.items() if r == card}
        if self.state["night"] % 2 == 0 or any(not self.alive[p] for p in members):
            return set()
        return {p for p in members if self.alive[p] and p not in self.powerless and p not in self.family_done[card]}

    def actors(self) -> set[int]:
        if self.ended or self.step == "dawn":
            return set()
        holder = {"cupid": "cupid", "seer": "seer", "witch": "witch", "guard": "guard", "thief": "thief",
                  "plague": "plague_bearer", "owl": "owl_man", "fox": "fox", "piper": "piper",
                  "white_werewolf": "white_werewolf", "wild_child": "wild_child", "raven": "raven",
                  "wolf_father": "wolf_father", "wolf_hound": "wolf_hound"}.get(self.step)
        if holder:   # a powerless holder, a Fox without flair: a ghost step (RULES-BOX B0.4)
            return {p for p, r in self.role.items() if r == holder and self.alive[p]
                    and (p not in self.powerless or r == "wolf_hound")   # his choice is no power (B6.1)
                    and (r != "fox" or self.flair)}
        for card, step in FAMILIES.items():
            if self.step == step:
                return self.family_actors(card)
        girl = self.little_girl
        spies = {girl} if girl is not None and self.alive[girl] and not self.caught_tonight else set()
        if self.step == "werewolves":
            return {p for p in self.wolves if self.alive[p]} | spies
        if self.step == "night":
            return ({p for p, r in self.role.items() if self.alive[p] and (r in FIXED_NIGHT_ACTORS or p in self.wolves)}
                    | {p for card in FAMILIES if card in self.in_deck for p in self.family_actors(card)})
        if self.step in ("hunter", "succession", "tiebreak", "speech", "scapegoat"):
            return {self.state["actor"]}
        if self.step == "tally":                      # A8: nobody acts
            return set()
        if self.step == "defense":                    # A5.2: the tied
            return set(self.tied)
        if self.step == "runoff":                     # A5.2: the living who are not tied
            return {p for p, a in self.alive.items() if a and p not in self.tied}
        return {p for p, a in self.alive.items() if a}

    def may_know_testament(self, s: int) -> bool:
        """A6.4, A9.1: the Hunter and the Captain see their own testament only."""
        return self.testament and (self.role[s] == "hunter" or s == self.captain or s == self.state.get("actor"))

    def forbidden_kinds(self, s: int) -> set[str]:
        if self.ended:
            return set()
        out = set(HIDDEN_KINDS)
        if self.role[s] != "seer":
            out |= SEER_KINDS
        if not self.living_wolf(s):
            out |= WOLF_KINDS
        if self.role[s] != "witch":
            out |= WITCH_KINDS
        if self.role[s] != "cupid":
            out |= CUPID_KINDS
        if s not in self.lovers:
            out |= LOVER_KINDS
        if self.role[s] != "guard":
            out |= GUARD_KINDS
        if s != self.thief:
            out |= THIEF_KINDS
        if s not in self.bitten:
            out |= CURSED_KINDS
        if self.role[s] != "plague_bearer":
            out |= PLAGUE_KINDS
        if s != self.little_girl:
            out |= LITTLE_GIRL_KINDS
            if not self.living_wolf(s):
                out |= CAUGHT_KINDS
        if self.role[s] != "owl_man":
            out |= OWL_KINDS
        if self.role[s] != "freemason":
            out |= MASON_KINDS
        if self.role[s] != "piper":
            out |= PIPER_KINDS
            if s not in self.charm_told:
                out |= CHARMED_KINDS
        if self.role[s] != "white_werewolf":
            out |= WHITE_KINDS
        if self.role[s] != "wild_child":
            out |= CHILD_KINDS
        if self.role[s] != "fox":
            out |= FOX_KINDS
        if self.role[s] != "raven":
            out |= RAVEN_KINDS
        if self.role[s] != "wolf_father":
            out |= FATHER_KINDS
        if s != self.infected:
            out |= INFECTED_KINDS
        if self.role[s] != "wolf_hound":
            out |= HOUND_KINDS
        out |= FAMILY_KINDS - {self.role[s]}
        return out

    def channel_lines(self, s: int, channel: str) -> list[str]:
        lines = [m["text"] for m in self.state["chat"] if m["channel"] == channel]
        if channel == "werewolves" and s in self.bitten and not self.ended:
            return lines[self.bitten[s]:]   # he was not there before his bite
        if channel == "werewolves" and s in self.joined and not self.ended:
            return lines[self.pack_chat[s]:]   # nor before he joined (RULES-BOX B0.3)
        return lines

    def shows_was(self, s: int, p: int) -> bool:
        """A bitten Cursed's card says so once shown: to himself, the living pack, or dead."""
        return p in self.bitten and (self.ended or not self.alive[p] or s == p or self.living_wolf(s))

    def forbidden_texts(self, s: int) -> set[str]:
        readable = set(self.channels(s))   # the Little Girl's overheard lines: checked in check_view
        return {m["text"] for m in self.state["chat"] if m["channel"] not in readable}


def _strip(event: dict) -> dict:
    """The event without its number and audience (a copy: three times cheaper than a comprehension)."""
    out = event.copy()
    out.pop("seq", None)
    out.pop("audience", None)
    return out


def _told_at_end(events: list[dict]) -> list[dict]:
    """The log as the end tells it: every event, and each dawn's `deaths` with the true
    causes its night's end-only `night_deaths` gives (a death of grief, issue 35)."""
    told = [_strip(e) for e in events]
    for i, event in enumerate(told):
        if event["kind"] != "deaths" or event["moment"] != "night":
            continue
        night = next((e for e in told[i + 1:] if e["kind"] == "night_deaths"), None)
        if night is not None:
            causes = {d["seat"]: d["cause"] for d in night["deaths"]}
            told[i] = {**event, "deaths": [{**d, "cause": causes.get(d["seat"], d["cause"])} for d in event["deaths"]]}
    return told


def _dicts_with_role(node) -> list[dict]:
    """Every object of a JSON document that has a "role" key, at any depth. A loop over a
    stack, without generators: the audit walks every response (nested generators cost it a
    fifth of its time, a generator per object a third of this walk's)."""
    found, stack = [], [node] if type(node) in (dict, list) else []
    while stack:
        node = stack.pop()
        if type(node) is dict:
            if "role" in node:
                found.append(node)
            node = node.values()
        for value in node:
            if type(value) in (dict, list):
                stack.append(value)
    return found


def _forbidden(truth: Truth, s: int):
    """(a regex of the secret event kinds, the set of unreadable messages) for seat s."""
    cache = truth.__dict__.setdefault("_forbidden", {})
    if s not in cache:
        kinds = sorted(truth.forbidden_kinds(s))
        pattern = re.compile(r'"kind"\s*:\s*"(%s)"' % "|".join(kinds)) if kinds else None
        cache[s] = pattern, truth.forbidden_texts(s)
    return cache[s]


CHAT_TOKEN = re.compile(r"~[VWDLSB]\d{6}q\d{4}~")   # S, B: the Sisters', the Brothers' channels


def check_text(truth: Truth, s: int | None, text: str, headers: str, where: str, body=None) -> None:
    """The raw response, whatever it is (view, acceptance, refusal): no secret in its text.
    ``body``: the text already decoded, when the caller has it (a view)."""
    if s is None or truth.ended:
        return
    kinds, secrets = _forbidden(truth, s)
    found = kinds.search(text) if kinds else None
    if found:
        raise Leak(f"{where}: seat {s} ({truth.role[s]}) gets a {found.group(1)!r} event")
    if secrets:
        for token in CHAT_TOKEN.findall(text + headers):
            if token in secrets:
                raise Leak(f"{where}: seat {s} ({truth.role[s]}) reads {token!r} of another channel")
    if re.search(r'"audience"\s*:', text):
        raise Leak(f"{where}: an event's audience is shown during play")
    if truth.role[s] != "guard" and re.search(r'"(protecting|protected_last)"\s*:', text):
        raise Leak(f"{where}: seat {s} sees the Guard's protection")
    if truth.role[s] != "plague_bearer" and re.search(r'"contaminated"\s*:', text):
        raise Leak(f"{where}: seat {s} sees the contaminated")
    if s != truth.little_girl and re.search(r'"spying"\s*:', text):
        raise Leak(f"{where}: seat {s} sees the Little Girl's eyes")
    if truth.role[s] != "owl_man" and re.search(r'"nominee"\s*:', text):
        raise Leak(f"{where}: seat {s} sees the Owl-Man's name of the night")
    if truth.role[s] != "fox" and re.search(r'"flair"\s*:', text):
        raise Leak(f"{where}: seat {s} sees the Fox's flair")
    if truth.role[s] != "wild_child" and re.search(r'"model"\s*:', text):
        raise Leak(f"{where}: seat {s} sees the Wild Child's model")
    if truth.role[s] != "piper" and s not in truth.charmed and re.search(r'"charmed"\s*:', text):
        raise Leak(f"{where}: seat {s} sees the charmed")
    if truth.role[s] != "raven" and re.search(r'"mark"\s*:', text):
        raise Leak(f"{where}: seat {s} sees the Raven's mark")
    if truth.role[s] != "wolf_father" and re.search(r'"infection"\s*:', text):
        raise Leak(f"{where}: seat {s} sees the Wolf-Father's infection")
    if s not in truth.joined and re.search(r'"pack"\s*:', text):
        raise Leak(f"{where}: seat {s} is told who joined the pack")
    if truth.role[s] != "witch" and re.search(r'"potions"\s*:', text):
        raise Leak(f"{where}: seat {s} sees the Witch's potions")
    if not truth.may_know_testament(s) and re.search(r'"testament"\s*:\s*\{', text):
        raise Leak(f"{where}: seat {s} ({truth.role[s]}) sees a testament")
    if s not in truth.lovers and re.search(r'"lover"\s*:', text):
        raise Leak(f"{where}: seat {s} is told of a lover")
    if not (truth.living_wolf(s) and truth.step in ("werewolves", "night")) and re.search(r'"designations"\s*:', text):
        raise Leak(f"{where}: seat {s} sees the wolves' designations")
    lowered = headers.lower()
    for word in ROLE_WORDS:
        if word in lowered:
            raise Leak(f"{where}: a response header names a role ({word})")
    if not text.strip():
        return
    if body is None:
        try:
            body = json.loads(text)
        except ValueError:
            raise Leak(f"{where}: a response that is not JSON: {text[:200]!r}")
    known = truth.known_roles(s)
    for node in _dicts_with_role(body):
        if node.get("kind") == "thief_swap" and s == truth.thief:
            continue   # the card he holds now
        who = node.get("seat", node.get("target"))
        if who is None or (who not in known and truth.alive.get(who, False)):
            raise Leak(f"{where}: seat {s} ({truth.role[s]}) learns a card: {node}")


def check_view(truth: Truth, s: int, view: dict) -> None:
    where = f"view of seat {s} at step {truth.step}"
    me = view["me"]
    if me["seat"] != s or me["role"] != truth.role[s] or me["alive"] != truth.alive[s]:
        raise Leak(f"{where}: wrong 'me' {me}")
    known = truth.known_roles(s)
    for p in view["players"]:
        if ("role" in p) != (p["seat"] in known) or p.get("role") not in (None, truth.shown_role(s, p["seat"])):
            raise Leak(f"{where}: card shown {p} (may know {sorted(known)})")
        if p["alive"] != truth.alive[p["seat"]]:
            raise Leak(f"{where}: wrong alive flag {p}")
        if ("camp" in p) != (p["seat"] in truth.camps_known(s)):
            raise Leak(f"{where}: a camp shown {p}")
        if ("was" in p) != ("role" in p and truth.shows_was(s, p["seat"])):
            raise Leak(f"{where}: a bitten Cursed told or hidden wrongly: {p}")
        if not truth.ended and ("pack" in p or p.get("voter", False) is not False
                                or ("voter" in p) != (not truth.voter(p["seat"]))):
            raise Leak(f"{where}: a voter or pack flag wrongly shown: {p}")
    if truth.ended:
        if view["status"] != "ended" or set(view["chat"]) != set(truth.all_channels()):
            raise Leak(f"{where}: the end does not reveal everything")
        if [_strip(e) for e in view["events"]] != _told_at_end(truth.state["events"]):
            raise Leak(f"{where}: the end does not show every event")
        return
    expected = truth.expected_events(s)
    shown = [_strip(e) for e in view["events"]]
    if shown != expected:
        extra = [e for e in shown if e not in expected]
        missing = [e for e in expected if e not in shown]
        raise Leak(f"{where}: events differ; extra {extra[:3]} missing {missing[:3]}")
    for event in shown:
        if event["kind"] == "deaths" and event["moment"] == "night":
            seats = [d["seat"] for d in event["deaths"]]
            if seats != sorted(seats) or {d["cause"] for d in event["deaths"]} - {"night"}:
                raise Leak(f"{where}: the dawn announcement tells the causes: {event['deaths']}")
    if [e["seq"] for e in view["events"]] != list(range(1, len(shown) + 1)):
        raise Leak(f"{where}: event seq numbers with gaps reveal hidden events")
    channels = truth.channels(s)
    if sorted(view["chat"]) != sorted(channels) or sorted(view["channels"]["read"]) != sorted(channels):
        raise Leak(f"{where}: channels {sorted(view['chat'])}, may read {channels}")
    for channel in channels:
        texts = [m["text"] for m in view["chat"][channel]]
        if s == truth.little_girl and channel == "werewolves" and not truth.ended:
            # What she overheard: some of the wolves' messages, in order, never an author (A3.2).
            every = [m["text"] for m in truth.state["chat"] if m["channel"] == channel]
            rest = iter(every)
            if not all(text in rest for text in texts) or any({"seat", "name"} & set(m) for m in view["chat"][channel]):
                raise Leak(f"{where}: the Little Girl's overheard lines {view['chat'][channel][:3]}")
            continue
        if texts != truth.channel_lines(s, channel):
            raise Leak(f"{where}: channel {channel} differs")
    writable = view["channels"]["writable"]
    if "dead" in writable and truth.alive[s] and truth.role[s] != "medium":
        raise Leak(f"{where}: a living {truth.role[s]} may write to the dead")
    if ("lover" in me) != (s in truth.lovers) or ("lover" in me and me["lover"] not in truth.lovers - {s}):
        raise Leak(f"{where}: lover {me.get('lover')}")
    if ("protecting" in me) != (truth.role[s] == "guard"):
        raise Leak(f"{where}: the Guard's protection shown to a {truth.role[s]}")
    if ("potions" in me) != (truth.role[s] == "witch"):
        raise Leak(f"{where}: potions shown to a {truth.role[s]}")
    if ("contaminated" in me) != (truth.role[s] == "plague_bearer"):
        raise Leak(f"{where}: the contaminated shown to a {truth.role[s]}")
    if ("flair" in me) != (truth.role[s] == "fox") or me.get("flair", truth.flair) != truth.flair:
        raise Leak(f"{where}: flair {me.get('flair')} for a {truth.role[s]}")
    if ("model" in me) != (truth.role[s] == "wild_child" and truth.model is not None):
        raise Leak(f"{where}: model {me.get('model')} for a {truth.role[s]}")
    charmed_circle = sorted(p for p in truth.charmed if truth.alive[p])
    may_charm = "piper" in truth.role.values() and (truth.role[s] == "piper" or (s in truth.charmed and truth.alive[s]))
    if ("charmed" in me) != may_charm or me.get("charmed", charmed_circle) != charmed_circle:
        raise Leak(f"{where}: charmed {me.get('charmed')} for a {truth.role[s]}")
    if ("mark" in me) != (truth.role[s] == "raven") or ("infection" in me) != (truth.role[s] == "wolf_father"):
        raise Leak(f"{where}: the Raven's mark or the Wolf-Father's infection shown to a {truth.role[s]}")
    if me.get("pack") != (True if s in truth.joined else None):
        raise Leak(f"{where}: pack {me.get('pack')} for seat {s}")
    if me.get("was") != ("cursed" if s in truth.bitten else None):
        raise Leak(f"{where}: 'was' {me.get('was')} for a {truth.role[s]}")
    if ("designations" in view) != (truth.living_wolf(s) and truth.step in ("werewolves", "night")):
        raise Leak(f"{where}: designations")
    if view["prompt"] and s not in truth.actors():
        raise Leak(f"{where}: a prompt for a seat that does not act: {view['prompt']}")
    ballot_steps = ("election", *ELIMINATION_ROUNDS)
    if truth.step not in ballot_steps and view["votes"]:
        raise Leak(f"{where}: votes outside a vote")
    if truth.secret and truth.step in ELIMINATION_ROUNDS and set(view["votes"]) - {str(s)}:
        raise Leak(f"{where}: another voter's secret ballot {view['votes']}")
    if truth.step in ballot_steps and set(view["votes"]) != {
            str(v) for v in truth.state["votes"] if not truth.secret or truth.step == "election" or int(v) == s}:
        raise Leak(f"{where}: votes {view['votes']} (state {truth.state['votes']})")


def same_knowledge_groups(truth: Truth) -> list[list[int]]:
    """Seats that know exactly the same things (own card aside): their views must be equal."""
    if truth.ended:
        return []
    groups: dict[tuple, list[int]] = {}
    for s in truth.role:
        if (s in truth.lovers or s == truth.thief or s in truth.bitten or s in truth.caught or truth.may_know_testament(s)
                or s in truth.charm_told or s in truth.joined or s == truth.pardoned):
            continue
        if truth.step == "defense" and s in truth.tied:
            continue   # their own writing rights
        if truth.step == "speech" and s == truth.state["actor"]:
            continue
        role = truth.role[s]
        if truth.alive[s]:
            key = ("plain", True) if role in PLAIN_ROLES else (
                ("wolf", True) if role == "werewolf" else None)
        else:
            key = ("plain", False) if role in (*PLAIN_ROLES, "werewolf") else None
        if key is not None:
            groups.setdefault(key, []).append(s)
    return [g for g in groups.values() if len(g) > 1]


def neutral(view: dict, secret: bool = False) -> dict:
    # votes: under a secret ballot each sees his own (check_view checks them).
    hidden = ("me", "version", "prompt", "votes") if secret else ("me", "version", "prompt")
    out = {k: v for k, v in view.items() if k not in hidden}
    if secret:   # each sees his own ballots (vote_cast): the other events must be the same
        out["events"] = [{k: v for k, v in e.items() if k != "seq"} for e in view["events"] if e["kind"] != "vote_cast"]
    out["players"] = [{k: v for k, v in p.items() if k != "connected" and (k != "role" or not p["alive"])}
                      for p in view["players"]]
    # The room screen's link is the host's alone (Audit.check_all checks who has it).
    if "table" in view:   # (the web's part of a view: none when played on the engine)
        out["table"] = {k: v for k, v in view["table"].items() if k != "screen_url"}
    return out


def shape(node):
    if isinstance(node, dict):
        return {k: shape(v) for k, v in node.items()}
    if isinstance(node, list):
        return [shape(v) for v in node]
    return type(node).__name__


# ---------------------------------------------------------------- the tables the audit draws

# RULES.md's four optional cards: on in most games, as a host leaves them.
BASE_OPTIONAL = ("seer", "witch", "hunter", "cupid")
# The options the oracle has lines for (a new option of the registry fails the mixed audit
# until someone decides here what it may reveal): the ones drawn by the older modes, and these.
KNOWN_OPTIONS = {"spectators", "little_girl_risk", *VARIANT_OPTIONS}
# How often each card and option is drawn in a mixed game: most games at 1/20 (a few cards
# each, often none), a third at 2/5 (many cards at once: their interactions, B3.15, B6.2).
MIXED_RATES = (1 / 20, 1 / 20, 2 / 5)


def registry_cards() -> tuple[str, ...]:
    """Every optional card of the registry beyond RULES.md's four."""
    from werewolf.engine import registry
    return tuple(r.id for r in registry.ROLES.values() if r.optional and not r.base)


def option_choices(option) -> tuple:
    """The values the audit draws for a registry option, its default first."""
    if option.values:
        return option.values
    if option.bounds:
        low, high = option.bounds
        return (option.default, *sorted({low, (low + high) // 2, high} - {option.default}))
    return (option.default, not option.default)


def unknown_to_the_oracle() -> list[str]:
    """Cards and options of the registry the oracle has no line for (the goal: none)."""
    from werewolf.engine import registry
    cards = set(registry_cards()) - set(NEW_ROLES) - set(BOX_ROLES)
    options = set(registry.OPTIONS) - set(OPTION_VALUES) - KNOWN_OPTIONS
    return sorted(cards | options)


def mixed_settings(rng: random.Random, rate: float) -> dict:
    """Every card and option of the registry may be drawn, each with probability ``rate``
    (an option at one of its other values); RULES.md's four cards in most games."""
    from werewolf.engine import registry
    roles = {role: rng.random() < 0.85 for role in BASE_OPTIONAL}
    roles.update({card: rng.random() < rate for card in registry_cards()})
    options = {}
    for option in registry.OPTIONS.values():
        others = option_choices(option)[1:]
        if others and rng.random() < rate:
            options[option.id] = rng.choice(others)
    return {"roles": roles, "captain": rng.random() < 0.8, "options": options}


def drawn_settings(audit: "Audit", rng: random.Random) -> dict:
    if audit.mixed:
        return mixed_settings(rng, rng.choice(MIXED_RATES))
    settings = {"roles": {role: rng.random() < 0.85 for role in BASE_OPTIONAL}, "captain": rng.random() < 0.8}
    if audit.variants or audit.box:
        settings["roles"].update({role: rng.random() < 0.4 for role in NEW_ROLES})
        settings["options"] = {option: rng.random() < 0.4 for option in VARIANT_OPTIONS}
        settings["options"]["little_girl_risk"] = rng.choice([0, 20, 50, 100])
    if audit.box:   # RULES-BOX's cards, with every variant card and option mixed in
        settings["roles"].update({role: rng.random() < 0.4 for role in BOX_ROLES})
    if audit.options:
        settings["options"] = {**settings.get("options", {}), **random_options(rng)}
    return settings


@dataclass
class Reply:
    """A response as the oracle reads it: over HTTP, the Flask response's; played on the
    engine, what the API would answer (``{"ok": true}`` or ``{"error": {code, message}}``)."""
    status_code: int
    text: str
    headers: str = ""

    @property
    def code(self) -> str | None:
        try:
            body = json.loads(self.text)
        except ValueError:
            return None
        return body.get("error", {}).get("code") if isinstance(body, dict) else None


# ---------------------------------------------------------------- playing over HTTP

class Client:
    def __init__(self, app, name: str, stats: Stats):
        self.http = app.test_client()
        self.name, self.stats = name, stats
        self.token = self.http.get("/api/me").get_json()["csrf_token"]
        self.etag: dict[str, str] = {}
        self.view: dict[str, dict] = {}
        self.seat: int | None = None

    def call(self, method: str, path: str, body=None, headers=None):
        self.stats.requests += 1
        headers = dict(headers or {})
        if method != "GET":
            headers["X-CSRFToken"] = self.token
        return self.http.open(path, method=method, json=body, headers=headers)

    def reply(self, method: str, path: str, body=None) -> Reply:
        r = self.call(method, path, body)
        return Reply(r.status_code, r.get_data(as_text=True), _headers(r))

    def register(self):
        r = self.call("POST", "/api/auth/register", {"name": self.name, "password": "Lune pleine 42"})
        if r.status_code != 201:
            raise RuntimeError(r.get_data(as_text=True))
        return self


class AuditGame:
    """One random game, its moves and its checks; how it reaches the game (the HTTP API,
    or the engine's own calls) is a subclass's: start, state, fetch, act, post_chat, time_out."""

    def __init__(self, audit: "Audit", rng: random.Random):
        self.audit, self.rng, self.stats = audit, rng, audit.stats
        # Uniform sizes, or (small_tables) sizes leaning towards 6: a game's cost grows as n².
        n = 6 + int(13 * rng.random() ** 2) if audit.small_tables else rng.randint(6, 18)
        self.chat_counter = 0
        self.last_seq = None
        self.focus: dict[int, int] = {}  # step_seq -> the seat most moves of that step aim at
        self.views: dict[int, dict] = {}
        settings = drawn_settings(audit, rng)
        # Half the steps split between two seats (ties, then defenses, re-votes, run-offs, the
        # Scapegoat): with the options, and in half the mixed games.
        self.split = audit.options or (audit.mixed and rng.random() < 0.5)
        # The optional cards switched on, dropped one by one while the deck is too big for n.
        dropped = [role for role in (*NEW_ROLES, *BOX_ROLES) if settings["roles"].get(role)]
        rng.shuffle(dropped)
        self.start(n, settings, dropped)
        self.stats.options.update(f"{k}={v}" for k, v in settings.get("options", {}).items())
        self.bitten: dict[int, int] = {}
        self.cursed_seen: set[int] = set()
        self.thief = None
        self.thief = next((s for s, r in self.truth().role.items() if r == "thief"), None)  # the deal
        self.stats.sizes[n] += 1

    # --- the truth, straight from where the game is kept
    def truth(self) -> Truth:
        state = self.state()
        roles = {p["seat"]: p["role"] for p in state["players"]}
        for seat in list(self.cursed_seen):
            if roles[seat] == "werewolf" and seat not in self.bitten:
                # Bitten since the last look: no message was posted in between (rounds chat
                # only after looking), so the channel's length now is where he starts.
                self.bitten[seat] = sum(1 for m in state["chat"] if m["channel"] == "werewolves")
        self.cursed_seen |= {seat for seat, role in roles.items() if role == "cursed"}
        return Truth(state, self.thief, dict(self.bitten))

    def poll(self, s: int, truth: Truth) -> dict:
        """Seat s's view now, checked when it changed (a 304 keeps the last one)."""
        fetched = self.fetch(s)
        if fetched is not None:
            text, headers, view = fetched
            check_text(truth, s, text, headers, "poll", view)
            check_view(truth, s, view)
            self.stats.views_checked += 1
            self.views[s] = view
        return self.views[s]

    def check_all(self) -> tuple[Truth, dict[int, dict]]:
        """Every seat's view at the start of every step (and at the end); within a step,
        a few seats at random. The others keep their last view, whose prompt is still
        valid in the same step."""
        truth = self.truth()
        seats = sorted(truth.role)
        seq = truth.state["step_seq"]
        if truth.ended or seq != self.last_seq:
            polled = seats
        else:
            polled = self.rng.sample(seats, min(self.audit.sample, len(seats)))
        self.last_seq = seq
        self.fresh = set(polled)
        for s in polled:
            self.poll(s, truth)
        views = {s: self.views[s] for s in seats}
        for s in polled:
            table = views[s].get("table")
            if table is not None and ("screen_url" in table) != (table["host_seat"] == s):
                raise Leak(f"seat {s} (host: seat {table['host_seat']}) is given the screen's link or not")
        if len(polled) < len(seats):
            return truth, views
        for group in same_knowledge_groups(truth):
            first = neutral(views[group[0]], truth.secret)
            for s in group[1:]:
                if neutral(views[s], truth.secret) != first:
                    raise Leak(f"seats {group[0]} and {s} know the same but see different views "
                               f"at step {truth.step}")
                if shape(views[s]["me"]) != shape(views[group[0]]["me"]):
                    raise Leak(f"seats {group[0]} and {s}: 'me' differs in shape")
        return truth, views

    def probe_refusals(self, truth: Truth) -> None:
        """The same refused request from seats that may not do it: the same answer for all."""
        actors = truth.actors()
        action = self.rng.choice(["seer.look", "werewolves.designate", "witch.save", "witch.poison",
                                  "witch.done", "cupid.pair", "hunter.shoot", "vote.cast",
                                  "election.vote", "tiebreak.choose", "succession.name", "guard.protect",
                                  "thief.take", "defense.done", "revote.cast", "runoff.cast", "speech.done",
                                  "hunter.testament", "succession.testament", "plague.infect",
                                  "little_girl.spy", "owl.designate", "stake.cast", "raven.mark", "raven.done",
                                  "wolf_father.infect", "wolf_hound.wolves", "sisters.done", "brothers.done",
                                  "nope"])
        target = self.rng.choice(list(truth.role))
        body = {"action": action, "target": target}
        if action == "cupid.pair":
            body = {"action": action, "targets": [target, target % len(truth.role) + 1]}
        channel = self.rng.choice(truth.all_channels())
        answers: dict[tuple, set] = {}
        others = [s for s in sorted(truth.role) if s not in actors]
        if action.endswith(".testament"):   # open in any step to the living Hunter and Captain
            others = [s for s in others if not (truth.alive[s] and (truth.role[s] == "hunter" or s == truth.captain))]
        for s in self.rng.sample(others, min(len(others), 6)):
            r = self.act(s, body)
            check_text(truth, s, r.text, r.headers, f"refused {action}")
            if r.status_code < 400:
                raise Leak(f"seat {s} ({truth.role[s]}) may {action} at step {truth.step}")
            answers.setdefault(("act", truth.alive[s]), set()).add((r.status_code, r.text))
            if channel == "werewolves" and truth.living_wolf(s):
                continue  # a wolf may write there at night
            if channel == "village" or (channel == "dead" and (not truth.alive[s] or truth.role[s] == "medium")):
                continue  # may be allowed: not a probe
            if channel == "lovers" and s in truth.lovers:
                continue  # a lover may write there
            if FAMILIES.get(truth.role[s]) == channel:
                continue  # a member may write there in the family's step
            r = self.post_chat(s, channel, "x")
            check_text(truth, s, r.text, r.headers, f"refused chat {channel}")
            if r.status_code < 400:
                raise Leak(f"seat {s} ({truth.role[s]}) may write in {channel} at step {truth.step}")
            answers.setdefault(("chat", truth.alive[s]), set()).add((r.status_code, r.text))
        for key, got in answers.items():
            self.stats.refusals_compared += 1
            if len(got) > 1:
                raise Leak(f"step {truth.step}: the same refused {key[0]} ({action}) gets different "
                           f"answers: {sorted(got)[:3]}")

    def maybe_chat(self, truth: Truth, views: dict[int, dict]) -> None:
        writers = [(s, channel) for s, v in views.items() for channel in v["channels"]["writable"]]
        if not writers or self.rng.random() < 0.65:
            return
        s, channel = self.rng.choice(writers)
        self.chat_counter += 1
        text = f"~{channel[:1].upper()}{self.audit.game_no:06d}q{self.chat_counter:04d}~"
        r = self.post_chat(s, channel, text)
        if r.status_code != 201:
            raise Leak(f"chat refused: {r.text}")
        check_text(truth, s, r.text, r.headers, "chat")
        self.stats.chats += 1

    def write_testament(self, truth: Truth) -> None:
        """A6.4: the living Hunter or Captain sets, changes or clears a testament (any step)."""
        hunter = next((p for p, r in truth.role.items() if r == "hunter" and truth.alive[p]), None)
        captain = truth.captain if truth.captain is not None and truth.alive[truth.captain] else None
        moves = [(hunter, "hunter.testament")] if hunter else []
        moves += [(captain, "succession.testament")] if captain else []
        if not moves:
            return
        s, action = self.rng.choice(moves)
        others = [p for p, a in truth.alive.items() if a and p != s]
        body = {"action": action, "target": self.rng.choice([*others, None])}
        r = self.act(s, body)
        check_text(truth, s, r.text, r.headers, f"act {action}")
        if r.status_code != 200:
            raise Leak(f"a testament was refused: {body} -> {r.text}")

    def play(self, max_rounds: int = 1000) -> Truth:
        """Rounds of: check every view; maybe probe refusals and chat; everyone who may act
        acts once (or the time runs out). A step ended by an earlier move of the round
        refuses the later ones with ``stale_step``: that refusal is checked like any other."""
        for _ in range(max_rounds):
            truth, views = self.check_all()
            if truth.ended:
                self.stats.winners[truth.state["winner"]["camp"]] += 1
                for role in set(truth.role.values()):
                    self.stats.roles[role] += 1
                self.stats.events.update(e["kind"] for e in truth.state["events"])
                return truth
            self.stats.steps[truth.step] += 1
            if self.rng.random() < self.audit.probe_rate:
                self.probe_refusals(truth)
            self.maybe_chat(truth, views)
            if truth.testament and self.rng.random() < 0.2:
                self.write_testament(truth)
            actors = [(s, v["prompt"]) for s, v in views.items() if v["prompt"]]
            if not actors or self.rng.random() < 0.1:
                self.time_out(truth)
                continue
            self.rng.shuffle(actors)
            focus = self.focus.setdefault(truth.state["step_seq"],
                                          self.rng.choice([s for s, a in truth.alive.items() if a]))
            movers = actors if self.rng.random() < 0.7 else actors[:self.rng.randint(1, len(actors))]
            for s, prompt in movers:
                aim = focus
                if self.split and truth.state["step_seq"] % 2:
                    aim = self.rng.choice([focus, focus % len(truth.role) + 1])
                body = random_move(prompt, self.rng, aim)
                r = self.act(s, body)
                check_text(truth, s, r.text, r.headers, f"act {body['action']}")
                if r.status_code >= 500 or (r.status_code != 200 and s in self.fresh
                                            and r.code not in ("stale_step", "game_over")):
                    # (a move from a view polled earlier in the step may be refused by now)
                    raise Leak(f"a legal move was refused: {body} -> {r.text}")
        raise RuntimeError("the game did not end")


class HttpGame(AuditGame):
    """Played by real accounts through the JSON API: the poll's caches and ETags, the
    refusals' and the acceptances' bodies, the headers are all checked too."""

    def start(self, n: int, settings: dict, dropped: list[str]) -> None:
        from werewolf.service import tables
        self.app = self.audit.app
        clients = self.audit.clients[:n]
        self.rng.shuffle(clients)
        host = clients[0]
        r = host.call("POST", "/api/tables", {"name": "Audit"})
        self.table_id = r.get_json()["table"]["id"]
        for c in clients[1:]:
            assert c.call("POST", f"/api/tables/{self.table_id}/join").status_code == 200
        assert host.call("PATCH", f"/api/tables/{self.table_id}/settings", settings).status_code == 200
        # The server deals with a seed of its own; here the game's generator draws it, so
        # that a game replays alike from its seed (Audit.play_one names it when it fails).
        server_secrets, tables.secrets = tables.secrets, SimpleNamespace(randbits=self.rng.getrandbits)
        try:
            started = host.call("POST", f"/api/tables/{self.table_id}/start")
            while started.status_code == 409 and _code(started) == "bad_composition":   # too many cards for n
                off = {"roles": {dropped.pop(): False} if dropped else {role: False for role in (*NEW_ROLES, *BOX_ROLES)}}
                assert host.call("PATCH", f"/api/tables/{self.table_id}/settings", off).status_code == 200
                started = host.call("POST", f"/api/tables/{self.table_id}/start")
        finally:
            tables.secrets = server_secrets
        assert started.status_code == 200, started.get_data(as_text=True)
        self.seats: dict[int, Client] = {}
        for c in clients:
            c.etag.pop(self.table_id, None)
            r = c.call("GET", f"/api/tables/{self.table_id}/state")
            view = r.get_json()
            c.seat = view["me"]["seat"]
            c.etag[self.table_id] = r.headers.get("ETag", "").strip('"')
            self.seats[c.seat] = c
            self.views[c.seat] = view

    def state(self) -> dict:
        from werewolf.extensions import db
        from werewolf.models import Table
        with self.app.app_context():
            table = db.session.get(Table, self.table_id)
            state = json.loads(table.current_game.state)
            db.session.remove()
        return state

    def fetch(self, s: int):
        c = self.seats[s]
        headers = {"If-None-Match": c.etag[self.table_id]} if self.table_id in c.etag else {}
        r = c.call("GET", f"/api/tables/{self.table_id}/state", headers=headers)
        if r.status_code == 304:
            return None
        if r.status_code != 200:
            raise Leak(f"poll answered {r.status_code}: {r.get_data(as_text=True)[:300]}")
        text = r.get_data(as_text=True)
        c.etag[self.table_id] = r.headers.get("ETag", "").strip('"')
        return text, _headers(r), orjson.loads(text)

    def act(self, s: int, body: dict) -> Reply:
        return self.seats[s].reply("POST", f"/api/tables/{self.table_id}/act", body)

    def post_chat(self, s: int, channel: str, text: str) -> Reply:
        return self.seats[s].reply("POST", f"/api/tables/{self.table_id}/chat", {"channel": channel, "text": text})

    def time_out(self, truth: Truth) -> None:
        from werewolf import service
        deadline = truth.state["deadline"]
        if deadline is None:
            return
        self.audit.clock.now = max(self.audit.clock.now, deadline + 0.25)
        with self.app.app_context():
            service.advance_due(self.audit.clock.now)  # what the scheduler does
            from werewolf.extensions import db
            db.session.remove()


class EngineGame(AuditGame):
    """Played on the engine's own calls (new_game, apply, post_chat, view_for, advance),
    as the service makes them, without the web around them: the views, the refusals and
    the secrecy are the engine's (RULES.md §8 is decided there); the HTTP games check what
    the web adds. About four times cheaper a game (the oracle's checks are most of it)."""

    def start(self, n: int, settings: dict, dropped: list[str]) -> None:
        from werewolf import engine
        self.now = 1_000_000.0
        seed = self.rng.getrandbits(63)
        while True:
            try:
                merged = engine.merge_settings(engine.default_settings(), settings)
                self.game = engine.new_game(NAMES[:n], merged, seed, self.now)
                break
            except engine.IllegalAction as error:
                if error.code != "bad_composition":
                    raise
                off = {dropped.pop(): False} if dropped else {role: False for role in (*NEW_ROLES, *BOX_ROLES)}
                settings = {**settings, "roles": {**settings["roles"], **off}}
        for s in range(1, n + 1):
            self.views[s] = engine.view_for(self.game, s, self.now)

    def state(self) -> dict:
        return json.loads(self.game.to_json())

    def fetch(self, s: int):
        from werewolf import engine
        self.stats.requests += 1
        view = engine.view_for(self.game, s, self.now)
        # Encoded as the server encodes a view (web/view.serialize): its text is what a phone reads.
        encoded = orjson.dumps(view, option=orjson.OPT_NON_STR_KEYS)
        return encoded.decode(), "", orjson.loads(encoded)

    def _move(self, change, status: int) -> Reply:
        from werewolf import engine
        from werewolf.web.errors import engine_status
        self.stats.requests += 1
        if self.game.deadline is not None and self.game.deadline <= self.now:
            engine.advance(self.game, self.now)   # as the service does before a move
        try:
            change()
        except engine.IllegalAction as error:
            return Reply(engine_status(error.code), json.dumps(
                {"error": {"code": error.code, "message": getattr(error, "message", None) or str(error)}}))
        return Reply(status, '{"ok":true}')

    def act(self, s: int, body: dict) -> Reply:
        from werewolf import engine
        return self._move(lambda: engine.apply(self.game, s, body, self.now), 200)

    def post_chat(self, s: int, channel: str, text: str) -> Reply:
        from werewolf import engine
        return self._move(lambda: engine.post_chat(self.game, s, channel, text, self.now), 201)

    def time_out(self, truth: Truth) -> None:
        from werewolf import engine
        deadline = self.game.deadline
        if deadline is None:
            return
        self.now = max(self.now, deadline + 0.25)
        engine.advance(self.game, self.now)


# RULES-VARIANTS A5, A6: the options the audit draws, each with its values (default first).
OPTION_VALUES = {"tie": ("captain", "none", "revote", "runoff"), "secret_ballot": (False, True),
                 "lovers_no_cross_vote": (False, True), "speech_turns": (False, True),
                 "seer_camp": (False, True), "witch_one_potion": (False, True),
                 "witch_no_self_save": (False, True), "poisoned_hunter_silent": (False, True),
                 "hunter_vote_shot_first": (False, True), "testament": (False, True)}


def random_options(rng: random.Random) -> dict:
    """A random option set: each option at a random value (so about half of them set)."""
    return {option: rng.choice(values) for option, values in OPTION_VALUES.items()}


def _code(response) -> str | None:
    body = response.get_json(silent=True)
    return body.get("error", {}).get("code") if isinstance(body, dict) else None


def _headers(response) -> str:
    return "\n".join(f"{k}: {v}" for k, v in response.headers.items())


def random_move(prompt: dict, rng: random.Random, focus: int | None = None, abstain: float = 0.04) -> dict:
    """A legal move of the prompt; targets lean towards ``focus`` so that votes converge.

    ``abstain`` is how often a target that may be null (withdraw, abstain) is left null.
    The HTTP and process tests share it."""
    spec = rng.choice(prompt["actions"])
    body = {"action": spec["action"], "step": prompt["step"]}
    choices = spec.get("choices", [])
    if "cards" in spec:   # a middle card (the Thief): its position
        body["card"] = rng.choice(choices)
    elif spec.get("count"):
        body["targets"] = rng.sample(choices, spec["count"])
    elif "min" in spec:   # from min to max seats (scapegoat.voters)
        body["targets"] = rng.sample(choices, rng.randint(spec["min"], spec["max"]))
    elif choices:
        if spec.get("nullable") and rng.random() < abstain:
            body["target"] = None
        elif focus in choices and rng.random() < 0.9:
            body["target"] = focus
        else:
            body["target"] = rng.choice(choices)
    return body


class Audit:
    """Random games one after the other, each from a seed of its own drawn from ``seed``.
    Over HTTP (``engine=False``): one app over one temporary database, 18 accounts reused
    from game to game. On the engine (``engine=True``): no app, no database."""

    def __init__(self, directory: str | None, seed: int, probe_rate: float = 0.1, sample: int = 3,
                 small_tables: bool = False, variants: bool = False, options: bool = False, box: bool = False,
                 mixed: bool = False, engine: bool = False):
        self.stats = Stats()
        self.seed = seed
        self.rng = random.Random(seed)
        self.game_no = 0
        self.probe_rate = probe_rate
        self.sample = sample
        self.small_tables = small_tables
        self.variants = variants  # the Guard and the Thief too, each in about half the games
        self.options = options    # a random option set (A5, A6) in every game
        self.box = box            # RULES-BOX's cards too, each in about 40% of the games
        self.mixed = mixed        # every card and option of the registry (mixed_settings)
        self.engine = engine
        if mixed and unknown_to_the_oracle():
            raise Leak(f"the oracle has no line for {unknown_to_the_oracle()}: decide what each seat may know of them")
        if engine:
            return
        from werewolf import store
        from werewolf.web import create_app
        os.environ["WEREWOLF_INSTANCE_PATH"] = os.path.join(directory, "instance")
        store.game_cache.clear()
        self.clock = Clock()
        self.app = create_app({
            "TESTING": True, "SECRET_KEY": "audit", "SCHEDULER": False, "CLOCK": self.clock,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{os.path.join(directory, 'audit.db')}",
            "SERVER_NAME": "werewolf.test", "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
            "CHAT_RATE_LIMIT": "1000000 per minute",  # the audit chats fast; limits are tested elsewhere
            "ACT_RATE_LIMIT": "1000000 per minute",  # and acts far faster than any player
            "REGISTRATION_RATE_LIMIT": "1000000 per minute",  # 18 accounts from one address
        })
        self.clients = [Client(self.app, name, self.stats).register() for name in NAMES]

    def play_one(self, game_seed: int | None = None) -> Truth:
        """A game from ``game_seed`` (else the next of the run's): a leak names the seed,
        and ``replay`` plays that very game again."""
        self.game_no += 1
        if game_seed is None:
            game_seed = self.rng.getrandbits(64)
        try:
            game = (EngineGame if self.engine else HttpGame)(self, random.Random(game_seed))
            truth = game.play()
        except Exception as error:
            where = (f"game {self.game_no} of the run with seed {self.seed}; that game alone: "
                     f"tests.kit.audit.replay({game_seed}, {self.modes()})")
            if isinstance(error, Leak):
                raise Leak(f"{error}\n  {where}") from error
            error.add_note(where)
            raise
        self.stats.games += 1
        return truth

    def modes(self) -> str:
        on = [name for name in ("small_tables", "variants", "options", "box", "mixed", "engine") if getattr(self, name)]
        return ", ".join(f"{name}=True" for name in on) + f", probe_rate={self.probe_rate}"

    def close(self) -> None:
        if self.engine:
            return
        from werewolf.extensions import db
        with self.app.app_context():
            db.session.remove()
            db.engine.dispose()


def replay(game_seed: int, **modes) -> Truth:
    """Play again the one game a leak message names (its seed and the run's modes)."""
    with tempfile.TemporaryDirectory() as tmp:
        audit = Audit(tmp, 0, **modes)
        try:
            return audit.play_one(game_seed)
        finally:
            audit.close()


def run(games: int, seed: int = 1, directory: str | None = None, progress=None,
        small_tables: bool = False, probe_rate: float = 0.1, variants: bool = False, options: bool = False,
        box: bool = False, mixed: bool = False, engine: bool = False) -> Stats:
    with tempfile.TemporaryDirectory(dir=directory) as tmp:
        audit = Audit(tmp, seed, small_tables=small_tables, probe_rate=probe_rate, variants=variants,
                      options=options, box=box, mixed=mixed, engine=engine)
        try:
            for i in range(games):
                audit.play_one()
                if progress and (i + 1) % progress == 0:
                    print(f"[{time.strftime('%H:%M:%S')}] {audit.stats.line()}", flush=True)
        finally:
            audit.close()
        return audit.stats


def run_many(games: int, seed: int = 1, workers: int = 1, small_tables: bool = False,
             progress=None, variants: bool = False, options: bool = False, box: bool = False,
             mixed: bool = False, engine: bool = False) -> Stats:
    """``games`` games over ``workers`` processes, each with its own app and database.
    ``variants``: the Guard and the Thief in about half the games too."""
    if workers <= 1:
        return run(games, seed, progress=progress, small_tables=small_tables, variants=variants, options=options,
                   box=box, mixed=mixed, engine=engine)
    from concurrent.futures import ProcessPoolExecutor
    share = [games // workers + (i < games % workers) for i in range(workers)]
    seeds = [seed * 1000 + i for i in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(run, share, seeds, [None] * workers, [progress] * workers,
                                [small_tables] * workers, [0.1] * workers, [variants] * workers,
                                [options] * workers, [box] * workers, [mixed] * workers, [engine] * workers))
    total = Stats()
    for part in results:
        for name in ("games", "requests", "views_checked", "refusals_compared", "chats"):
            setattr(total, name, getattr(total, name) + getattr(part, name))
        for name in ("steps", "roles", "winners", "sizes", "events", "options"):
            getattr(total, name).update(getattr(part, name))
    return total
