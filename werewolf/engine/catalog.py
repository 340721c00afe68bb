"""The rules as data for the pages (roles, steps, actions, events, limits, presets).

Built from the registry only; the web layer adds the names and descriptions in the
reader's language.
"""

from . import registry
from .rules import (
    MAX_LIMIT,
    MAX_PLAYERS,
    MAX_WOLVES,
    MIN_LIMIT,
    MIN_PLAYERS,
    PRESET_NEUTRAL_OPTIONS,
    preset_composition,
    wolf_count,
)

# Events of the kernel itself (every module lists its own); those told to everyone as they happen
# (a `vote_cast` of a secret round goes to its voter only: the kind is public, that round is not);
# those told to nobody until the end.
KERNEL_EVENTS = ("game_start", "step", "deaths", "night_summary", "night_deaths", "vote_request",
                 "vote_cast", "vote_result", "game_end", "stalemate", "player_left")
KERNEL_PUBLIC_EVENTS = ("game_start", "step", "deaths", "vote_request", "vote_cast", "vote_result",
                        "game_end", "stalemate", "player_left")
KERNEL_END_EVENTS = ("night_summary", "night_deaths")

# How the kernel's events read (registry.Event; every module declares its own beside it).
# `step` and `vote_cast` are shown by the narration and the players' tiles, not in words.
_say, _event = registry.Say, registry.Event
KERNEL_SHAPES = (
    _event("game_start", {"composition": "object", "players": "int"}, says=(_say("ev.game_start"),),
           timeline=(_say("tl.game_start"),)),
    _event("step", {"step": "text", "step_seq": "int", "actor": "seat?", "night": "int", "day": "int"}),
    _event("deaths", {"moment": "text", "deaths": "deaths"},
           says=(_say("", when={"deaths": True}, lines="deaths"),
                 _say("ev.deaths_none", when={"moment": "night"})),
           moment=(_say("moment.night", when={"moment": "night", "deaths": True}),)),   # its title at dawn
    _event("night_summary", {"night": "int", "victim": "seat?", "saved": "bool", "poisoned": "seat?",
                             "elder_life": "seat"},
           says=(_say("ev.night_summary", args={
               "night": "night", "victim": "victim",
               "saved": (_say("ev.saved", when={"saved": True}),),
               "poisoned": (_say("ev.poisoned", when={"poisoned": True}, args={"name": "poisoned"}),)}),),
           # the end's timeline tells only what no other line does: the Elder's spent life (B3.1)
           timeline=(_say("tl.elder_life", when={"elder_life": True}, args={"name": "elder_life"}),)),
    _event("night_deaths", {"night": "int", "deaths": "deaths"}),
    _event("vote_request", {"seat": "seat", "count": "int"},
           says=(_say("ev.vote_request", args={"name": "seat"}),), timeline=()),
    _event("vote_cast", {"step": "text", "seat": "seat", "target": "seat?"}),
    # Each Say that holds, in turn: the outcome (one of the first six), then whose votes were no
    # ballot (the Raven's, RULES-BOX B3.10), so that the count shown adds up.
    _event("vote_result", {"day": "int", "tally": "counts", "eliminated": "seat?", "tied": "seats",
                           "candidates": "seats", "scapegoat": "seat", "pardoned": "seat",
                           "raven": {"target": "seat", "votes": "int"}},
           says=(_say("ev.stake_candidates", when={"candidates": True}, args={"names": "candidates"}),
                 _say("ev.vote_pardoned", when={"pardoned": True}, args={"name": "pardoned"}),
                 _say("ev.vote_result", when={"eliminated": True, "pardoned": None}, args={"name": "eliminated"}),
                 _say("ev.vote_scapegoat", when={"scapegoat": True}, args={"names": "tied", "name": "scapegoat"}),
                 _say("ev.vote_tie", when={"tied": True, "scapegoat": None}, args={"names": "tied"}),
                 _say("ev.vote_none", when={"eliminated": None, "tied": False, "candidates": False}),
                 _say("ev.vote_raven", when={"raven": True}, args={"name": ("raven.target", "seat"), "votes": ("raven.votes", "int")})),
           moment=True, each=True),
    _event("game_end", {"winner": "winner"}, says=(_say("", args={"winner": "winner"}),), timeline=()),
    _event("stalemate", {"days": "int"}, says=(_say("ev.stalemate"),)),
    _event("player_left", {"seat": "seat"}, says=(_say("ev.player_left", args={"name": "seat"}),), moment=True),
)


def _kinds(field: str, kernel: tuple) -> list:
    parts = [*registry.MODULES.values(), *registry.OPTIONS.values()]
    return sorted(set(kernel).union(*(getattr(part, field) for part in parts)))


def _arg(arg):
    if isinstance(arg, tuple) and arg and isinstance(arg[0], registry.Say):
        return {"says": _says(arg)}   # a part said only sometimes
    return list(arg) if isinstance(arg, tuple) else arg


def _says(says) -> list:
    return [{"key": say.key, "when": dict(say.when), "args": {name: _arg(arg) for name, arg in say.args.items()},
             "lines": say.lines} for say in says]


def _shape(shape: registry.Event) -> dict:
    """An event kind as the pages render it (registry.Event): its words and whether it is a moment."""
    return {"fields": dict(shape.fields), "says": _says(shape.says),
            "timeline": None if shape.timeline is None else _says(shape.timeline),
            "moment": _says(shape.moment) if isinstance(shape.moment, tuple) else shape.moment,
            "each": shape.each, "on_card": shape.on_card}


def catalog() -> dict:
    steps = [registry.STEPS[s] for s in registry.step_ids()]
    return {
        "roles": [{"id": r.id, "camp": r.camp, "pack": r.pack, "tags": sorted(registry.tags_of(r.id)), "wolf_place": r.wolf_place, "optional": r.optional, "default": r.default,
                   "base": r.base, "cards": r.cards, "emoji": r.emoji, "middle_cards": r.middle_cards,
                   "steps": [s.id for s in r.steps]}
                  for r in registry.ROLES.values()],
        "steps": [{"id": s.id, "phase": s.phase, "night_order": s.night_order, "role": s.role,
                   "limits": dict(zip(registry.RHYTHMS, s.limits)), "default_limit": s.limit,
                   "actions": [a.id for a in s.actions], "shows": list(s.shows), "ballots": s.ballots,
                   "option": registry.STEP_OPTION.get(s.id), "layout": s.layout, "eliminates": s.eliminates,
                   # nobody acts in it (dawn, the count): the narration says it all
                   "acts": s.actors is not registry.nobody or bool(registry.SIDES.get(s.id)) or s.gathers is not None,
                   "tied_sit_out": s.tied_sit_out, "heading": s.heading,
                   "info": _says(s.info), "info_events": list(s.info_events)}
                  for s in steps],
        "night_order": [s.id for s in registry.night_steps()],
        "actions": [{"id": a.id, "step": registry.ACTION_STEP[a.id], "steps": list(registry.ACTION_STEPS[a.id]),
                     "kind": a.kind, "field": registry.BODY_FIELDS[a.kind], "nullable": a.nullable,
                     "icon": a.icon, "style": a.style}
                    for a in [*(a for s in steps for a in s.actions),
                              *(a for m in registry.MODULES.values() for side in m.side for a in side.actions)]]
                   + [{"id": a.id, "step": None, "steps": [], "kind": a.kind, "field": registry.BODY_FIELDS[a.kind],
                       "nullable": a.nullable, "role": a.role, "captain": a.captain, "slot": a.slot}
                      for a in registry.STANDING.values()],
        "choice_kinds": {kind: registry.BODY_FIELDS[kind] for kind in registry.CHOICE_KINDS},
        "events": _kinds("events", KERNEL_EVENTS),
        # Told to everyone as they happen, or to nobody until the end; the pages keep the other
        # (secret) kinds off a phone whose card is face down: another eye may see it.
        "public_events": _kinds("public_events", KERNEL_PUBLIC_EVENTS),
        "end_events": _kinds("end_events", KERNEL_END_EVENTS),
        # How each declared kind reads (registry.Event): the pages' one renderer (static/js/story.js).
        "event_shapes": {kind: _shape(shape) for kind, shape in
                         sorted({**{k.kind: k for k in KERNEL_SHAPES}, **registry.event_shapes()}.items())},
        "winners": registry.winner_camps(),
        "camps": list(registry.CAMPS),
        "options": [_option(o) for o in registry.OPTIONS.values()],
        "option_groups": list(registry.OPTION_GROUPS),
        "rhythms": list(registry.RHYTHMS),
        "phases": list(registry.PHASES),   # a step's phase; night first
        # Only the presets whose every role and option is built; each with what it gives by size.
        "presets": [{"id": p.id, "sizes": list(p.sizes), "rhythm": p.rhythm, "captain": p.captain,
                     "options": dict(p.options),
                     "by_size": {str(n): _composed(p, n) for n in range(p.sizes[0], p.sizes[1] + 1)}}
                    for p in registry.usable_presets()],
        "wolf_table": {str(n): wolf_count(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)},
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        "limits": {"min": MIN_LIMIT, "max": MAX_LIMIT},
        "wolves": {"min": 1, "max": MAX_WOLVES},
    }


def _option(option) -> dict:
    """An option for the pages: its kind says which control sets it."""
    if isinstance(option.default, bool) and not option.values:
        kind = "bool"
    elif isinstance(option.default, int) and not option.values:
        kind = "int"
    else:   # a choice; an option registered without its values offers its default only
        kind = "choice"
    out = {"id": option.id, "default": option.default, "group": option.group, "kind": kind,
           "steps": [s.id for s in option.steps], "actions": [a.id for a in option.actions],
           "preset_neutral": option.id in PRESET_NEUTRAL_OPTIONS, "roles": list(option.roles)}
    if kind == "choice":
        out["values"] = list(option.values or (option.default,))
    if option.bounds:
        out["min"], out["max"] = option.bounds
    return out


def _composed(preset, players: int) -> dict:
    composed = preset_composition(preset, players)
    cards = {role: registry.ROLES[role].cards for role in registry.ROLES if role in composed["roles"]}
    return {"wolves": composed["wolves"], "roles": cards,
            # A card in a wolf's place (the Wolf-Father) is one of the wolves (RULES-BOX B1.2).
            "villagers": players - composed["wolves"]
            - sum(count for role, count in cards.items() if not registry.ROLES[role].wolf_place),
            "middle": sum(registry.ROLES[role].middle_cards for role in cards)}
