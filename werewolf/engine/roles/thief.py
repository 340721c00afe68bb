"""Thief — Voleur (RULES-VARIANTS A3.1): two more cards lie face down in the middle; on
the first night he may take one of them in exchange for his own.

The middle is ``game.extra["middle"]`` (positions 1 and 2), dealt by the kernel since
``middle_cards=2``. The swap is his secret: only he is told (``thief_swap``); a wolf card
makes him a wolf the pack sees as one of theirs (``wolves_joined``), never as the Thief.
"""

from .. import flow, registry
from ..errors import IllegalAction
from ..game import WOLVES, Game
from ..registry import CARD, CONFIRM, Action, Event, Role, Say, Step

ID = "thief"


def _must_take_wolf(game: Game) -> bool:
    return all(registry.is_pack(card) for card in game.middle())


def _on_start(game: Game, now: float) -> None:
    seat = game.alive_holder(ID)
    if seat is not None:   # a ghost step shows nobody anything
        game.emit("thief_cards", seat, now, cards=list(game.middle()))


def _prompt(game: Game, seat: int, living):
    out = [{"action": "thief.take", "choices": [1, 2], "cards": list(game.middle())}]
    if not _must_take_wolf(game):
        out.append({"action": "thief.keep"})
    return out


def _take(game: Game, seat: int, card: int, now: float) -> None:
    middle = game.extra["middle"]
    me = game.player(seat)
    me.role, middle[card - 1] = middle[card - 1], me.role
    game.emit("thief_swap", seat, now, card=card, role=me.role)
    if registry.is_pack(me.role):
        game.emit("wolves_joined", WOLVES, now, seats=game.living_wolves())
    flow.next_night_step(game, ID, now)


def _keep(game: Game, seat: int, _, now: float) -> None:
    game.emit("thief_swap", seat, now, card=None, role=ID)
    flow.next_night_step(game, ID, now)


def _keep_refusal(game: Game, seat: int) -> IllegalAction:
    return IllegalAction("must_take_wolf", "both cards are werewolves: take one of them")


def _time_out(game: Game, now: float) -> None:
    seat = game.alive_holder(ID)
    if seat is None:           # a ghost step
        flow.next_night_step(game, ID, now)
    elif _must_take_wolf(game):  # the rule forces a wolf; a random one tells nothing
        _take(game, seat, 1 + game.draw(2), now)
    else:
        _keep(game, seat, None, now)


STEP = Step(ID, "night", (30, 45, 90), time_out=_time_out, actors=flow.alive_holder_acts(ID), prompt=_prompt,
            on_start=_on_start,
            actions=(Action("thief.take", CARD, _take), Action("thief.keep", CONFIRM, _keep, _keep_refusal)),
            night_order=10, runs=flow.holder_runs(ID, first_night_only=True), role=ID,
            fixed_night="first_night")

ROLE = registry.register(Role(ID, emoji="🃏", camp=registry.VILLAGE, steps=(STEP,), middle_cards=2,
                              events=(
    Event("thief_cards", {"cards": "roles"},
          says=(Say("ev.thief_cards", args={"a": "cards.0", "b": "cards.1"}),)),
    Event("thief_swap", {"card": "card", "role": "role", "audience": "seat"},
          says=(Say("ev.thief_keep", when={"card": None}), Say("ev.thief_swap", args={"n": "card", "role": "role"})),
          timeline=(Say("tl.thief_keep", when={"card": None}, args={"name": "audience"}),   # the end: whose
                    Say("tl.thief_swap", args={"name": "audience", "role": "role"}))),
    Event("wolves_joined", {"seats": "seats"}, says=(Say("ev.wolves_joined", args={"names": "seats"}),)),
)))
