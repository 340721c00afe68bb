"""The one place that decides what a player may know (RULES.md §8).

A view holds what this seat may know and nothing else: secrets that exist are
absent, never null-ed in place. Once the game has ended everything is revealed.
"""

from . import flow, pack, registry
from .actions import legal_actions
from .chat import readable_channels, writable_channel, writable_channels
from .day import ballot_audience, ballot_weight
from .errors import IllegalAction
from .game import Game, iso
from .rules import composition


def known_roles(game: Game, seat: int | None) -> dict[int, str]:
    if game.status == "ended":
        return {p.seat: p.role for p in game.players}
    known = {p.seat: p.role for p in game.players if not p.alive}
    for shown in game.extra.get("shown", ()):   # a card turned face up for everyone (a pardoned Idiot)
        known[shown] = game.player(shown).role
    if seat is None:
        return known
    known[seat] = game.player(seat).role
    for hook in game.hooks("known_roles"):
        hook(game, seat, known)
    return known


def _told_causes(game: Game) -> dict[int, list]:
    """At the end, each dawn's announcement with its true causes (grief): the index of a
    night's public `deaths` event -> its deaths as the end-only `night_deaths` tells them."""
    told, dawn = {}, None
    for i, event in enumerate(game.events):
        if event["kind"] == "deaths" and event["moment"] == "night":
            dawn = i
        elif event["kind"] == "night_deaths" and dawn is not None:
            causes = {d["seat"]: d["cause"] for d in event["deaths"]}
            told[dawn] = [{**d, "cause": causes.get(d["seat"], d["cause"])} for d in game.events[dawn]["deaths"]]
            dawn = None
    return told


def _visible_events(game: Game, seat: int | None, shared: dict) -> list[dict]:
    """The events this seat sees: the same list for every seat that sees the same audiences."""
    audiences = shared.get("audiences")
    if audiences is None:
        audiences = shared["audiences"] = tuple(dict.fromkeys(event["audience"] for event in game.events))
    seen = frozenset(audience for audience in audiences if game.can_see(audience, seat))
    events = shared.get(seen)
    if events is None:
        events = shared[seen] = _events_seen(game, seen)
    return events


def _events_seen(game: Game, seen: frozenset) -> list[dict]:
    ended = game.status == "ended"
    # Once ended everything is told: the dawn's deaths say who died of grief (issue 35).
    causes = _told_causes(game) if ended else {}
    out = []
    for index, event in enumerate(game.events):
        if event["audience"] in seen:
            shown = {"seq": len(out) + 1, **event}
            if index in causes:
                shown["deaths"] = causes[index]
            if not ended:
                # Who an event was for is itself a secret during play.
                del shown["audience"]
            out.append(shown)
    return out


def _chat(game: Game, channels: list[str], shared: dict) -> dict:
    """The lines of each readable channel: the same list in every view made with ``shared``."""
    lines = shared.get("chat")
    if lines is None:
        lines = shared["chat"] = {}
        for message in game.chat:
            channel = lines.setdefault(message["channel"], [])
            channel.append({"seq": len(channel) + 1, **message})
    return {ch: lines.get(ch, []) for ch in channels}


def seconds_left(deadline: float, now: float) -> float:
    """``step.seconds_left``: the web layer writes it into kept views as it serves them."""
    return max(0, round(deadline - now, 1))


def _step(game: Game, now: float) -> dict | None:
    if game.status != "running":
        return None
    step = {"id": game.step, "seq": game.step_seq,
            "deadline": iso(game.deadline), "seconds_left": seconds_left(game.deadline, now)}
    if game.is_night():
        step["night"] = game.night
    else:
        step["day"] = game.day
    shows = registry.STEPS[game.step].shows
    if "actor" in shows:
        step["actor"] = game.actor
    if "tied" in shows:
        step["tied"] = list(game.tied)
    if "round" in shows:
        step["round"] = game.extra.get("round", 1)
    if "candidates" in shows:   # the stake's (A3.5), kept in game.tied like the tied of a tie-break
        step["candidates"] = list(game.tied)
    return step


def _votes(game: Game, seat: int | None) -> dict:
    """The ballots of the running election or round this seat may see (a secret round:
    its own only, A5.1); a round's audience is the one rule day.ballot_audience."""
    if game.status != "running" or not registry.STEPS[game.step].ballots:
        return {}
    if game.step == "election":
        return {str(voter): target for voter, target in sorted(game.votes.items())}
    return {str(voter): target for voter, target in sorted(game.votes.items())
            if game.can_see(ballot_audience(game, voter), seat)}


def _weights(game: Game, votes: dict) -> dict:
    """The ballots shown that weigh more than one (a round's, the Captain's), by voter."""
    if not votes or not registry.STEPS[game.step].eliminates:
        return {}
    weight = ballot_weight(game)
    return {voter: weight(int(voter)) for voter in votes if weight(int(voter)) != 1}


def view_for(game: Game, seat: int | None, now: float, shared: dict | None = None) -> dict:
    """``shared``: a dict kept for the views of one state of the game, made at one ``now``
    (views_for): the lists every seat sees alike (a channel's lines, the events of the same
    audiences) are made once and are the same objects in each view. So no one changes them
    in place: a ``view`` hook replaces such a list in its view, as the pack's does."""
    shared = {} if shared is None else shared
    if seat is not None and not (type(seat) is int and 1 <= seat <= game.n):
        # Seats index the players list: 0 or -1 would read another player's card.
        raise IllegalAction("not_your_turn", "you are not seated in this game")
    known = known_roles(game, seat)
    players = []
    for p in game.players:
        shown = {"seat": p.seat, "name": p.name, "alive": p.alive, "captain": p.seat == game.captain}
        if p.seat in known:
            shown["role"] = known[p.seat]
        if p.alive and p.seat in game.extra.get("shown", ()):   # face up for everyone (a pardoned Idiot)
            shown["face_up"] = True
        players.append(shown)
    pack.shown_at_end(game, players)
    if "voters" in game.in_play.hooks and game.status == "running":   # RULES-BOX B5.2
        living = game.living()
        voting = set(flow.voters(game, living))
        for player in players:
            if player["alive"] and player["seat"] not in voting:
                player["voter"] = False
    channels = readable_channels(game, seat)
    actions = legal_actions(game, seat)
    view = {
        "version": game.version_for(seat),
        "status": game.status,
        "me": None,
        "players": players,
        "composition": composition(game.cards),
        "step": _step(game, now),
        "prompt": {"step": game.step_seq, "actions": actions} if actions else None,
        "votes": _votes(game, seat),
        "requests": list(game.requests) if game.step == "debate" else [],
        "events": _visible_events(game, seat, shared),
        "chat": _chat(game, channels, shared),
        "channels": {"read": channels, "write": writable_channel(game, seat),
                     "writable": writable_channels(game, seat)},
        "winner": game.winner,
    }
    if game.status == "ended":
        # The end tells the whole story: the couple, and the cards nobody held.
        if game.lovers:
            view["lovers"] = list(game.lovers)
        if game.middle():
            view["middle"] = list(game.middle())
    weights = _weights(game, view["votes"])
    if weights:
        view["weights"] = weights
    if seat is not None:
        me = game.player(seat)
        view["me"] = {"seat": seat, "name": me.name, "role": me.role, "alive": me.alive,
                      "captain": seat == game.captain}
        for hook in game.hooks("view"):
            hook(game, seat, view)
    return view
