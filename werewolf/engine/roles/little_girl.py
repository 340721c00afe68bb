"""Little Girl — Petite Fille (RULES-VARIANTS A3.2): no step of her own; during the wolves'
step (or the fixed night) she may open her eyes and overhear the wolves, without their names.

State (``game.extra["little_girl"]``, while her card is in the deck):
- ``open``: the step_seq of the step in which her eyes are open, else None (they close by
  themselves when that step ends: the step number moves on);
- ``risk``: this night's draw, made at the start of every spying step whatever she will do,
  so that spying never shifts the game's other random draws (A9.1);
- ``caught``: her seat once a wolf saw her (for good), ``caught_night`` the night of it;
- ``heard``: indexes in ``game.chat`` of the wolves' messages she overheard.

Spying never ends nor lengthens the step (A3.2): her actions are side actions of the step.
"""

from .. import powers, registry
from ..game import AUDIENCES, Game
from ..registry import CONFIRM, Action, Event, Option, Role, Say, Side

ID = "little_girl"
RISK = "little_girl_risk"          # options.little_girl_risk, percent (A1.1)
SPY_STEPS = ("werewolves", "night")   # `night`: the fixed night (A7.1)
CAUGHT_AUDIENCE = "little_girl_caught"   # the living wolves and her


def _state(game: Game) -> dict | None:
    return game.extra.get(ID)


def _holder(game: Game) -> int | None:
    return game.holder(ID)


def _caught_tonight(game: Game, state: dict) -> bool:
    return state.get("caught_night") == game.night


def _actors(game: Game, living):
    state, seat = _state(game), game.alive_holder(ID)
    if state is None or seat is None or _caught_tonight(game, state) or not powers.has_power(game, seat):
        return []
    return [seat]


def _prompt(game: Game, seat: int, living):
    return [{"action": "little_girl.hide" if _state(game)["open"] == game.step_seq else "little_girl.spy"}]


def _spy(game: Game, seat: int, _, now: float) -> None:
    state = _state(game)
    game.emit("little_girl_spy", seat, now, night=game.night, open=True)
    if state["risk"]:
        # Seen at once: her eyes close for the night, the pack knows her for good.
        state["caught"], state["caught_night"], state["open"] = seat, game.night, None
        game.emit("little_girl_caught", CAUGHT_AUDIENCE, now, night=game.night, seat=seat)
    else:
        state["open"] = game.step_seq


def _hide(game: Game, seat: int, _, now: float) -> None:
    _state(game)["open"] = None
    game.emit("little_girl_spy", seat, now, night=game.night, open=False)


def _deal(game: Game) -> None:
    if ID in game.cards:
        game.extra[ID] = {"open": None, "risk": False, "caught": None, "caught_night": None, "heard": []}


def _step_starts(game: Game, now: float) -> None:
    state = _state(game)
    if state is not None and game.step in SPY_STEPS:
        risk = game.settings.get("options", {}).get(RISK, OPTION.default)
        state["risk"] = game.draw(100) < risk
        state["open"] = None


def _chat_posted(game: Game, message: dict) -> None:
    state = _state(game)
    if (state is not None and message["channel"] == "werewolves" and state["open"] == game.step_seq
            and game.step in SPY_STEPS and game.alive_holder(ID) is not None):
        state["heard"].append(len(game.chat) - 1)
        game.touch(_holder(game))


def _known(game: Game, seat: int, known: dict) -> None:
    state = _state(game)
    if state is not None and state["caught"] is not None and seat in game.living_wolves():
        known[state["caught"]] = game.player(state["caught"]).role


def _view(game: Game, seat: int, view: dict) -> None:
    """Whether she is spying now; her `werewolves` tab: what she overheard, without author
    (the end shows the channel whole)."""
    state = _state(game)
    if state is None or game.player(seat).role != ID:
        return
    view["me"]["spying"] = game.status == "running" and state["open"] == game.step_seq
    if game.status != "running":
        return
    view["chat"]["werewolves"] = [{"seq": i + 1, "channel": "werewolves", "text": game.chat[index]["text"],
                                   "at": game.chat[index]["at"]} for i, index in enumerate(state["heard"])]
    if "werewolves" not in view["channels"]["read"]:
        view["channels"]["read"] = [*view["channels"]["read"], "werewolves"]


def _caught_audience(game: Game) -> list[int]:
    state = _state(game)
    return [*game.living_wolves(), state["caught"]] if state and state["caught"] is not None else game.living_wolves()


AUDIENCES[CAUGHT_AUDIENCE] = _caught_audience

OPTION = registry.register_option(Option(
    RISK, default=20, check=lambda value: type(value) is int and 0 <= value <= 100, group="roles", bounds=(0, 100),
    roles=(ID,)))

ROLE = registry.register(Role(
    ID, emoji="👧", camp=registry.VILLAGE,
    side=(Side(SPY_STEPS, actors=_actors, prompt=_prompt,
               actions=(Action("little_girl.spy", CONFIRM, _spy), Action("little_girl.hide", CONFIRM, _hide))),),
    hooks={"deal": _deal, "step_starts": _step_starts, "chat_posted": _chat_posted, "known_roles": _known,
           "view": (60, _view)},
    events=(
        Event("little_girl_spy", {"night": "int", "open": "bool"},
              says=(Say("ev.little_girl_open", when={"open": True}), Say("ev.little_girl_closed")),
              timeline=(Say("tl.little_girl_open", when={"open": True}, args={"name": (ID, "holder")}),
                        Say("tl.little_girl_closed", args={"name": (ID, "holder")}))),
        Event("little_girl_caught", {"night": "int", "seat": "seat"},
              says=(Say("ev.little_girl_caught_me", when={"seat": "@me"}),
                    Say("ev.little_girl_caught", args={"name": "seat"})),
              timeline=(Say("tl.little_girl_caught", args={"name": "seat"}),), moment=True),
    ),
))
