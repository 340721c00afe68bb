"""The rules as data for the pages (roles, steps, actions, events, limits, presets).

Built from the registry only; the web layer adds the names and descriptions in the
reader's language.
"""

from . import registry
from .rules import MAX_LIMIT, MAX_PLAYERS, MAX_WOLVES, MIN_LIMIT, MIN_PLAYERS

# Events of the kernel itself (every module lists its own).
KERNEL_EVENTS = ("game_start", "step", "deaths", "night_summary", "night_deaths", "vote_request",
                 "vote_cast", "vote_result", "game_end")


def catalog() -> dict:
    steps = [registry.STEPS[s] for s in registry.step_ids()]
    return {
        "roles": [{"id": r.id, "camp": r.camp, "pack": r.pack, "optional": r.optional, "default": r.default,
                   "base": r.base, "cards": r.cards, "emoji": r.emoji, "middle_cards": r.middle_cards,
                   "steps": [s.id for s in r.steps]}
                  for r in registry.ROLES.values()],
        "steps": [{"id": s.id, "phase": s.phase, "night_order": s.night_order, "role": s.role,
                   "limits": dict(zip(registry.RHYTHMS, s.limits)), "default_limit": s.limit,
                   "actions": [a.id for a in s.actions], "shows": list(s.shows)}
                  for s in steps],
        "night_order": [s.id for s in registry.night_steps()],
        "actions": [{"id": a.id, "step": registry.ACTION_STEP[a.id], "steps": list(registry.ACTION_STEPS[a.id]),
                     "kind": a.kind, "field": registry.BODY_FIELDS[a.kind], "nullable": a.nullable}
                    for a in [*(a for s in steps for a in s.actions),
                              *(a for m in registry.MODULES.values() for side in m.side for a in side.actions)]],
        "choice_kinds": {kind: registry.BODY_FIELDS[kind] for kind in registry.CHOICE_KINDS},
        "events": sorted(set(KERNEL_EVENTS).union(*(m.events for m in registry.MODULES.values()))),
        "camps": list(registry.CAMPS),
        "options": [{"id": o.id, "default": o.default} for o in registry.OPTIONS.values()],
        "rhythms": list(registry.RHYTHMS),
        "presets": [{"id": p.id, "sizes": list(p.sizes), "rhythm": p.rhythm} for p in registry.PRESETS.values()],
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        "limits": {"min": MIN_LIMIT, "max": MAX_LIMIT},
        "wolves": {"min": 1, "max": MAX_WOLVES},
    }
