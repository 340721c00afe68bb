"""The Two Sisters and the Three Brothers (RULES-BOX B3.12): not a card, the rules both
families share; ``sister.py`` and ``brother.py`` build their card with ``family`` (not a card itself).

A family knows itself from the start (as A3.6's Freemasons: an event with the partners'
seats at the deal, or once the Thief's step is over, and their cards in ``players[]``),
and on odd nights its living members confer in their own channel during their step,
until a card of the family has been shown dead (B2.2). The channel's readers are the
family's seats, dead or alive (the dead keep its history); they write only during their
step, alive and with their powers. Nobody else reads it until the end.

State (``game.extra[<card>]``, while the card is in the deck): ``told`` (the family was
told), ``done`` (the seats that closed their part tonight).
"""

from .. import flow, powers, registry
from ..game import AUDIENCES, CHANNEL_AUDIENCE, Game
from ..registry import CONFIRM, Action, Event, Role, Say, Step

CARD_MOVER = "thief"   # the step after which cards no longer move (A3.1)


def family(card: str, step_id: str, cards: int, emoji: str, night_order: int) -> Role:
    """Register a family's card, step and channel (``step_id`` is also the channel's id)."""

    def members(game: Game) -> list[int]:
        return game.seats_with(card)

    def shown_dead(game: Game) -> bool:
        """A card of the family lies face up among the dead (public)."""
        return any(not game.player(seat).alive for seat in members(game))

    def runs(game: Game) -> bool:
        # Only the night's number and public deaths (B2.2); a card in the middle: a ghost step.
        if game.night % 2 == 0 or shown_dead(game):
            return False
        return any(game.player(seat).alive for seat in members(game)) or card in game.middle()

    def confers(game: Game) -> bool:
        """Their step acts now (its own, or gathered in a fixed night's `night` on an odd night)."""
        return step_id in flow.active_steps(game) and runs(game)

    def may_act(game: Game, seat: int) -> bool:
        return game.player(seat).alive and powers.has_power(game, seat)

    def actors(game: Game, living: list[int]) -> list[int]:
        if not confers(game):
            return []
        done = game.extra[card]["done"]
        return [seat for seat in members(game) if may_act(game, seat) and seat not in done]

    def prompt(game: Game, seat: int, living) -> list[dict]:
        return [{"action": f"{step_id}.done"}]

    def done(game: Game, seat: int, _, now: float) -> None:
        state = game.extra[card]
        state["done"].append(seat)
        game.touch(seat)   # his prompt is gone
        if not [s for s in members(game) if may_act(game, s) and s not in state["done"]]:
            flow.next_night_step(game, step_id, now)

    def time_out(game: Game, now: float) -> None:
        flow.next_night_step(game, step_id, now)   # nothing to decide

    def deal(game: Game) -> None:
        if card in game.cards:
            game.extra[card] = {"told": False, "done": []}

    def night_begins(game: Game) -> None:
        state = game.extra.get(card)
        if state is not None:
            state["done"] = []

    def step_starts(game: Game, now: float) -> None:
        """The first step that is not the Thief's: right after the deal, or when `thief` ends."""
        state = game.extra.get(card)
        if state is None or state["told"] or game.step == CARD_MOVER:
            return
        state["told"] = True
        seats = members(game)
        for seat in seats:
            game.emit(card, seat, now, partners=[s for s in seats if s != seat])

    def known(game: Game, seat: int, known: dict) -> None:
        state = game.extra.get(card)
        if state is not None and state["told"] and game.player(seat).role == card:
            known.update({s: card for s in members(game)})

    def channels(game: Game) -> list[str]:
        return [step_id] if card in game.cards else []

    def writable(game: Game, seat: int, out: list) -> None:
        if game.player(seat).role == card and may_act(game, seat) and confers(game):
            out.append(step_id)

    AUDIENCES[step_id] = members
    CHANNEL_AUDIENCE[step_id] = step_id

    step = Step(step_id, "night", (20, 30, 60), time_out=time_out, actors=actors, prompt=prompt,
                actions=(Action(f"{step_id}.done", CONFIRM, done),),
                night_order=night_order, runs=runs, role=card, layout="one_button",
                nights=lambda night: night % 2 == 1)   # a fixed night plans them on odd nights only
    return registry.register(Role(
        card, emoji=emoji, camp=registry.VILLAGE, cards=cards, steps=(step,),
        hooks={"deal": deal, "night_begins": night_begins, "step_starts": (5, step_starts),
               "known_roles": known, "channels": channels, "writable_channels": writable},
        events=(Event(card, {"partners": "seats"},
                      says=(Say(f"ev.{card}_alone", when={"partners": False}),
                            Say(f"ev.{card}", args={"names": "partners"})),
                      timeline=()),),   # the end shows every card: the family is told there
    ))
