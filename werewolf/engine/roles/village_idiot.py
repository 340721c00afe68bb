"""Village Idiot — Idiot du village (RULES-BOX B3.2): voted out, he does not die; his card
is shown and he votes no more. A second vote elimination kills him; the Elder's death
after the pardon takes him too.

State (``game.extra["village_idiot"]``): ``pardoned`` his seat once pardoned, else None.
The pardon takes a vote elimination over (hook ``vote_elimination``), in every round that
eliminates (vote, tiebreak, revote, runoff, stake); the day then goes on as after an
elimination. No step.
"""

from .. import flow, powers, registry
from ..game import EVERYONE, Game
from ..registry import Event, Role, Say

ID = "village_idiot"
ELDER = "elder"   # whose death takes a pardoned Idiot with him (B3.2)


def _pardoned(game: Game) -> int | None:
    state = game.extra.get(ID)
    return state["pardoned"] if state is not None else None


def _deal(game: Game) -> None:
    if ID in game.cards:
        game.extra[ID] = {"pardoned": None}


def _would_pardon(game: Game, seat: int) -> bool:
    state = game.extra.get(ID)
    # once; powerless before any pardon, he is simply eliminated
    return (state is not None and state["pardoned"] is None and game.player(seat).role == ID
            and powers.has_power(game, seat))


def _counted(game: Game, count, now: float) -> bool:
    """The round's result reads as a pardon, not an elimination (``pardoned``: his seat)."""
    leaders = count.leaders
    if leaders is not None and len(leaders) == 1 and _would_pardon(game, leaders[0]):
        count.fields["pardoned"] = leaders[0]
    return False


def _pardon(game: Game, seat: int, died: list[int] | None, now: float) -> bool:
    if died is not None or not _would_pardon(game, seat):
        return False   # asked before the vote's deaths only
    state = game.extra[ID]
    state["pardoned"] = seat
    game.extra.setdefault("shown", []).append(seat)   # his card, to everyone from now on
    game.emit("idiot_pardoned", EVERYONE, now, seat=seat)
    if game.captain == seat:   # he loses the title: his last act as Captain is the succession
        game.pending_succession = seat
    flow.continue_follow_ups(game, now)
    return True


def _voters(game: Game, seats: list[int]) -> list[int]:
    pardoned = _pardoned(game)
    return [s for s in seats if s != pardoned] if pardoned is not None else seats


def _grief(game: Game, died: list) -> None:
    """The Elder's death, by any cause, takes the pardoned Idiot in the same batch."""
    pardoned = _pardoned(game)
    if pardoned is None or not game.player(pardoned).alive:
        return
    if any(game.player(seat).role == ELDER for seat, _ in died):
        game.player(pardoned).alive = False
        died.append((pardoned, "grief"))


def _succession_prompt(game: Game, seat: int, specs: list) -> list:
    """Pardoned as Captain, he may not name himself: the title goes."""
    if seat == _pardoned(game) and game.step == "succession":
        return [{**spec, "choices": [s for s in spec["choices"] if s != seat]}
                if spec["action"] == "succession.name" else spec for spec in specs]
    return specs


ROLE = registry.register(Role(
    ID, emoji="🤪", camp=registry.VILLAGE,
    hooks={"deal": _deal, "vote_elimination": _pardon, "round_counted": (70, _counted), "voters": _voters,
           "grief": (20, _grief), "prompt": _succession_prompt},
    events=(Event("idiot_pardoned", {"seat": "seat"}, says=(Say("ev.idiot_pardoned", args={"name": "seat"}),),
                  timeline=(Say("tl.idiot_pardoned", args={"name": "seat"}),), moment=True),),
    public_events=("idiot_pardoned",),
))
