"""Testament — `testament` (RULES-VARIANTS A6.4, 002): the living Hunter may set, change
or clear a planned shot (`hunter.testament`), the living Captain a successor
(`succession.testament`), in any step, never listed in a prompt (A13). Only its author
sees it (`me.testament`) until it is used: at the time-out of his `hunter` or
`succession` step, if it names a living player (`hunter_shot` / `succession` gain
`testament: true`). A silenced Hunter's testament does not shoot either. At the end
(A9.1, "everything is revealed"), every testament still standing, unused, is told to all:
one `testament` event per author, with the last target of each kind he set."""
from .. import flow, registry
from ..actions import legal_actions
from ..game import AT_END, Game
from ..registry import Event, Option, Say, StandingAction

ID = "testament"
STEP_ACTION = {"hunter": "hunter.shoot", "succession": "succession.name"}


def _on(game: Game) -> bool:
    return registry.option_value(game, ID) is True


def _testaments(game: Game) -> dict:
    return game.extra.setdefault(ID, {})


def _hunter_choices(game: Game, seat: int):
    me = game.player(seat)
    if not _on(game) or not me.alive or me.role != "hunter":
        return None
    return [s for s in game.living() if s != seat]


def _captain_choices(game: Game, seat: int):
    if not _on(game) or game.captain != seat or not game.player(seat).alive:
        return None
    return [s for s in game.living() if s != seat]


def _set(kind: str):
    def apply(game: Game, seat: int, target, now: float) -> None:
        mine = _testaments(game).setdefault(str(seat), {})
        if target is None:
            mine.pop(kind, None)
        else:
            mine[kind] = target
        game.touch(seat)   # his view (me.testament) changed; nobody else's
    return apply


def _time_out(game: Game, kind: str, now: float) -> bool:
    action = STEP_ACTION.get(game.step)
    if kind != flow.TIME_OUT or action is None or not _on(game):
        return False
    target = game.extra.get(ID, {}).get(str(game.actor), {}).get(game.step)
    if target is None or not game.player(target).alive:
        return False
    # Only when the step's own choice is open to him (a silenced Hunter's testament is silent too).
    if not any(spec["action"] == action and target in spec["choices"] for spec in legal_actions(game, game.actor)):
        return False
    author, kind = game.actor, game.step
    del game.extra[ID][str(author)][kind]   # used, and told now: the end has nothing more to reveal of it
    registry.ACTIONS[action].apply(game, author, target, now, testament=True)
    return True


def _reveal(game: Game, now: float) -> None:
    for seat, mine in sorted(game.extra.get(ID, {}).items(), key=lambda item: int(item[0])):
        if mine:
            game.emit("testament", AT_END, now, seat=int(seat), **mine)


def _view_me(game: Game, seat: int, view: dict) -> None:
    me = view["me"]
    mine = game.extra.get(ID, {}).get(str(seat))
    if not mine:
        return
    # Alive he may still use it; dead, only during his own step (where it may still shoot).
    usable = game.player(seat).alive or (game.actor == seat and game.step in STEP_ACTION)
    testament = {kind: target for kind, target in mine.items() if usable and (
        (kind == "hunter" and game.player(seat).role == "hunter") or (kind == "succession" and game.captain == seat))}
    if testament:
        me["testament"] = testament


OPTION = registry.register_option(Option(
    id=ID, default=False, group="roles", check=lambda value: isinstance(value, bool),
    actions=(StandingAction("hunter.testament", _set("hunter"), _hunter_choices, role="hunter", slot="hunter"),
             StandingAction("succession.testament", _set("succession"), _captain_choices, captain=True, slot="succession")),
    hooks={"step_ends": _time_out, "view": (5, _view_me), "game_ends": _reveal}, events=(
        Event("testament", {"seat": "seat", "hunter": "seat", "succession": "seat"}, says=(),
              timeline=(Say("tl.testament_hunter", when={"hunter": True}, args={"hunter": "seat", "name": "hunter"}),
                        Say("tl.testament_succession", when={"succession": True},
                            args={"previous": "seat", "name": "succession"})), each=True),),
    end_events=("testament",)))
