"""Bear Tamer — Montreur d'ours (RULES-BOX B3.8): each morning his bear growls if one of his
two neighbours is a werewolf (a pack member), or he is one himself (infected).

No step, no state: at each `dawn` (from day 1, after the night's deaths, after the
Owl-Man's nominee and the Raven's accused: hook ``step_starts`` at 70), if he lives with
his power, everyone gets ``bear_growl`` {day}. The event never names him.
"""

from .. import powers, registry, ring
from ..game import EVERYONE, Game
from ..registry import Event, Role, Say

ID = "bear_tamer"


def _dawn(game: Game, now: float) -> None:
    if game.step != "dawn":
        return
    seat = game.alive_holder(ID)
    if seat is None or not powers.has_power(game, seat):
        return
    if game.in_pack(seat) or any(game.in_pack(s) for s in ring.neighbours(game, seat)):
        game.emit("bear_growl", EVERYONE, now, day=game.day)


ROLE = registry.register(Role(
    ID, emoji="🐻", camp=registry.VILLAGE, hooks={"step_starts": (70, _dawn)},
    events=(Event("bear_growl", {"day": "int"}, says=(Say("ev.bear_growl"),), moment=True),),
    public_events=("bear_growl",),
))
