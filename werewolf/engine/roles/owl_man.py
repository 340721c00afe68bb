"""Owl-Man — Homme-Hibou (RULES-VARIANTS A3.5): each night he may name a player who will
stand at the next day's stake; the village's vote then elects the second candidate, and
the stake (`stake`) decides between them.

State (``game.extra["owl_man"]``, while his card is in the deck):
- ``designating``: tonight's name (set, changed, withdrawn; the last one stands);
- ``nominee``: the player announced at dawn (``owl_nominee``), for that day only.
The stake's candidates are the step's ``game.tied`` (shown as ``step.candidates``).

The stake is an elimination round like any (day.ballot_prompt, cast_ballot, close_round,
sentence): the Captain's weight, a secret ballot and the `tie` option apply to it too.
"""

from .. import day, flow, registry
from ..game import EVERYONE, Game
from ..registry import CONFIRM, SEAT, Action, Event, Role, Say, Step

ID = "owl_man"


def _state(game: Game) -> dict:
    return game.extra[ID]


def _lover_of(game: Game, seat: int) -> int | None:
    if game.lovers and seat in game.lovers:
        return game.lovers[0] if game.lovers[1] == seat else game.lovers[1]
    return None


def _prompt(game: Game, seat: int, living):
    lover = _lover_of(game, seat)   # never his lover (A3.5: the server prevents it)
    return [{"action": "owl.designate", "choices": [s for s in living if s != lover], "nullable": True,
             "current": _state(game)["designating"]},
            {"action": "owl.done"}]


def _designate(game: Game, seat: int, target, now: float) -> None:
    if _state(game)["designating"] == target:
        return   # the same choice again changes nothing
    _state(game)["designating"] = target
    game.emit_choice("owl_designate", seat, now, night=game.night, target=target)


def _done(game: Game, seat: int, _, now: float) -> None:
    flow.next_night_step(game, "owl", now)


def _time_out(game: Game, now: float) -> None:
    flow.next_night_step(game, "owl", now)   # his last name stands


def _deal(game: Game) -> None:
    if ID in game.cards:
        game.extra[ID] = {"designating": None, "nominee": None}


def _night_begins(game: Game) -> None:
    state = game.extra.get(ID)
    if state is not None:
        state["designating"], state["nominee"] = None, None


def _step_starts(game: Game, now: float) -> None:
    """At dawn, after the night's deaths: the nominee, if alive, whether or not the Owl-Man is."""
    state = game.extra.get(ID)
    if state is None or game.step != "dawn" or state["designating"] is None:
        return
    nominee, state["designating"] = state["designating"], None
    if game.player(nominee).alive:
        state["nominee"] = nominee
        game.emit("owl_nominee", EVERYONE, now, day=game.day, target=nominee)


def _standing(game: Game) -> int | None:
    """Today's nominee, while alive (dead before the vote: the plain base vote)."""
    state = game.extra.get(ID)
    if state is None or state["nominee"] is None or not game.player(state["nominee"]).alive:
        return None
    return state["nominee"]


def _vote_prompt(game: Game, seat: int, specs: list) -> list:
    """The nominee stands already: the vote names the second candidate among the others."""
    nominee = _standing(game) if game.step == "vote" else None
    if nominee is None:
        return specs
    return [{**spec, "choices": [s for s in spec["choices"] if s != nominee]} if spec["action"] == "vote.cast" else spec
            for spec in specs]


def _vote_counted(game: Game, count: day.Count, now: float) -> bool:
    """The vote elected the second candidate(s); nobody voted: no stake, nobody (A13).
    After every card's votes (the Raven's, at 20); not counted yet (None): nothing."""
    nominee = _standing(game) if count.step == "vote" else None
    leaders, tally = count.leaders, count.tally
    if nominee is None or not leaders:
        return False
    candidates = sorted([nominee, *leaders])
    game.emit("vote_result", EVERYONE, now, day=game.day, tally=flow.str_keys(tally), eliminated=None,
              tied=[], candidates=candidates)
    flow.start_step(game, "stake", now, tied=candidates)
    return True


def _view_me(game: Game, seat: int, view: dict) -> None:
    me = view["me"]
    if game.player(seat).role == ID:
        me["nominee"] = _state(game)["designating"]


STEP = Step("owl", "night", (20, 30, 60), time_out=_time_out, actors=flow.alive_holder_acts(ID), prompt=_prompt,
            actions=(Action("owl.designate", SEAT, _designate, nullable=True), Action("owl.done", CONFIRM, _done)),
            night_order=38, runs=flow.holder_runs(ID), role=ID)   # after guard (35), before plague
STAKE = Step("stake", "day", (40, 60, 120), time_out=day.close_round, actors=flow.voters, ballots=True,
             eliminates=True,
             prompt=day.ballot_prompt("stake.cast"), actions=(Action("stake.cast", SEAT, day.cast_ballot, nullable=True),),
             shows=("candidates",), order=155, role=ID)   # after `vote` (150), before `tiebreak` (160)

ROLE = registry.register(Role(
    ID, emoji="🦉", camp=registry.VILLAGE, steps=(STEP, STAKE),
    hooks={"deal": _deal, "night_begins": _night_begins, "step_starts": _step_starts,
           "prompt": _vote_prompt, "round_counted": (60, _vote_counted), "view": (5, _view_me)},
    events=(
        Event("owl_designate", {"night": "int", "target": "seat?"},
              says=(Say("ev.owl_designate_none", when={"target": None}), Say("ev.owl_designate", args={"name": "target"})),
              timeline=(Say("tl.owl_designate_none", when={"target": None}),
                        Say("tl.owl_designate", args={"name": "target"}))),
        Event("owl_nominee", {"day": "int", "target": "seat"}, says=(Say("ev.owl_nominee", args={"name": "target"}),),
              timeline=(Say("tl.owl_nominee", args={"name": "target"}),), moment=True),
    ),
    public_events=("owl_nominee",),
))
