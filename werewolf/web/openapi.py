"""``GET /api/openapi.json``: an OpenAPI 3 description of the whole JSON API.

Written by hand next to the routes it describes; tests/web/test_openapi.py checks it
against the app (every route described, every response matching its schema, no 5xx)
with Schemathesis.
"""
from flask import Blueprint, jsonify

from .. import engine
from . import poll

bp = Blueprint("openapi", __name__)

SEAT = {"type": "integer", "minimum": 1, "maximum": engine.MAX_PLAYERS}  # the engine's limit, one source
NULLABLE_SEAT = {**SEAT, "nullable": True}
STEP_IDS = list(engine.STEPS)
ROLE_IDS = list(engine.ROLES)
OPTIONAL_ROLE_IDS = engine.registry.optional_roles()
CHANNELS = list(engine.game.CHANNEL_AUDIENCE)   # the base ones and those options open (lovers)
ISO = {"type": "string", "format": "date-time"}
RHYTHM = {"type": "string", "enum": list(engine.registry.RHYTHMS)}
PRESET = {"type": "string", "enum": list(engine.registry.PRESETS), "nullable": True}
WOLVES = {"type": "integer", "minimum": 1, "maximum": engine.rules.MAX_WOLVES, "nullable": True}


def _option_schema(option) -> dict:
    if option.values:
        return {"type": "string" if isinstance(option.default, str) else "integer", "enum": list(option.values)}
    if isinstance(option.default, bool):
        return {"type": "boolean"}
    if isinstance(option.default, str):
        return {"type": "string"}
    low, high = option.bounds or (None, None)
    return {"type": "integer", **({"minimum": low, "maximum": high} if option.bounds else {})}


def field_schema(spec) -> dict:
    """The schema of a field a module declares (engine.registry.FIELD_TYPES)."""
    if isinstance(spec, dict):
        return _obj({}, {name: field_schema(sub) for name, sub in spec.items()})
    nullable = {"nullable": True} if spec.endswith("?") else {}
    types = {"seat": SEAT, "seats": {"type": "array", "items": SEAT},
             "role": {"type": "string", "enum": ROLE_IDS},
             "roles": {"type": "array", "items": {"type": "string", "enum": ROLE_IDS}},
             "camp": {"type": "string", "enum": list(engine.registry.CAMPS)}, "bool": {"type": "boolean"},
             "int": {"type": "integer"}, "text": {"type": "string"}, "card": {"type": "integer", "minimum": 1},
             "object": {"type": "object"}}
    return {**types.get(spec.rstrip("?"), {}), **nullable}

OPTIONS = {o.id: _option_schema(o) for o in engine.registry.OPTIONS.values()}
# The body field of each choice kind (engine.registry.BODY_FIELDS), described once.
CHOICE_SCHEMAS = {
    engine.registry.SEAT: NULLABLE_SEAT,
    engine.registry.SEATS: {"type": "array", "items": SEAT},
    engine.registry.CARD: {"type": "integer", "enum": [1, 2], "description": "a middle card (the Thief)"},
}


def _obj(required: dict, optional: dict | None = None, **extra) -> dict:
    return {"type": "object", "required": list(required),
            "properties": {**required, **(optional or {})}, **extra}


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


# The fields each module adds to view['me'] (its declaration `me`, beside its view hook).
DECLARED_ME = {name: field_schema(spec) for module in engine.registry.MODULES.values()
               for name, spec in module.me.items()}

SCHEMAS = {
    "Error": _obj({"error": _obj({"code": {"type": "string", "pattern": "^[a-z0-9_]+$"},
                                  "message": {"type": "string"}})}),
    "Ok": _obj({"ok": {"type": "boolean", "enum": [True]}}),
    "User": _obj({"id": {"type": "integer"}, "name": {"type": "string"}}, {
        "guest": {"type": "boolean", "description": "no password yet: joined by a table's link with a name"}}),
    "Me": _obj({"user": {**_ref("User"), "nullable": True}, "csrf_token": {"type": "string"}}),
    "Credentials": _obj({"name": {"type": "string"}, "password": {"type": "string"}}),
    "Registration": _obj({"name": {"type": "string"}, "password": {
        "type": "string", "description": "may be left out with table_code: the account is then a guest's, "
        "protected later by POST /api/auth/password"}}, {
        "table_code": {"type": "string", "description": "the code of the table whose link brought "
                       "the player, who is seated there: required when registration is by invitation"}}),
    "Registered": _obj({"user": _ref("User"), "csrf_token": {"type": "string"}}, {"table": {"nullable": True, **_obj(
        {"code": {"type": "string"}, "url": {"type": "string"}, "seated": {"type": "boolean"}})}}),
    "PasswordChange": _obj({"new_password": {"type": "string"}}, {
        "old_password": {"type": "string", "description": "required, except for a guest's first password"}}),
    "Password": _obj({"password": {"type": "string"}}),
    "Visibility": _obj({"public": {"type": "boolean"}}),
    # A browser's PushSubscription.toJSON() (the W3C Push API); expirationTime is ignored.
    "PushSubscription": _obj({"endpoint": {"type": "string", "maxLength": 1000},
                              "keys": _obj({"p256dh": {"type": "string"}, "auth": {"type": "string"}})},
                             {"expirationTime": {"type": "number", "nullable": True}}),
    "PushEndpoint": _obj({"endpoint": {"type": "string", "maxLength": 1000}}),
    "Settings": _obj({
        "roles": _obj({r: {"type": "boolean"} for r in OPTIONAL_ROLE_IDS}),
        "captain": {"type": "boolean"},
        "limits": _obj({s: {"type": "integer"} for s in STEP_IDS}),
        "wolves": WOLVES, "rhythm": RHYTHM, "preset": PRESET,
    }, {"options": _obj(OPTIONS)}),
    "SettingsPatch": {
        "type": "object", "additionalProperties": False,
        "properties": {
            "roles": {"type": "object", "additionalProperties": False,
                      "properties": {r: {"type": "boolean"} for r in OPTIONAL_ROLE_IDS}},
            "captain": {"type": "boolean"},
            "limits": {"type": "object", "additionalProperties": False,
                       "properties": {s: {"type": "integer", "minimum": 1, "maximum": 3600}
                                      for s in STEP_IDS}},
            "wolves": WOLVES,
            "options": {"type": "object", "additionalProperties": False, "properties": OPTIONS},
            "rhythm": RHYTHM,
            "preset": PRESET,
        },
    },
    "Table": _obj({
        "id": {"type": "string"}, "code": {"type": "string"}, "name": {"type": "string"},
        "status": {"type": "string", "enum": ["lobby", "running", "ended"]},
        "host_seat": NULLABLE_SEAT, "seated": {"type": "integer", "minimum": 0},
        "settings": _ref("Settings"), "time_scale": {"type": "number"}, "url": {"type": "string"},
    }, {"public": {"type": "boolean"}, "screen_url": {"type": "string"}, "spectators": {"type": "integer", "minimum": 0}}),
    "TableEnvelope": _obj({"table": _ref("Table")}),
    "TableList": _obj({"tables": {"type": "array", "items": _obj({
        "id": {"type": "string"}, "code": {"type": "string"}, "name": {"type": "string"},
        "seated": {"type": "integer"}, "url": {"type": "string"},
    }, {"host": {"type": "string", "nullable": True}})}}),
    "NewTable": {"type": "object", "properties": {"name": {"type": "string", "nullable": True}}},
    "Action": _obj({"action": {"type": "string"}}, {
        **{engine.registry.BODY_FIELDS[kind]: schema for kind, schema in CHOICE_SCHEMAS.items()},
        "step": {"type": "integer"},
    }),
    "ChatMessage": _obj({"channel": {"type": "string", "enum": CHANNELS}, "text": {"type": "string"}}),
    "Player": _obj({"seat": SEAT, "name": {"type": "string"}, "alive": {"type": "boolean"},
                    "captain": {"type": "boolean"}},
                   {"connected": {"type": "boolean"}, "role": {"type": "string", "enum": ROLE_IDS},
                    "camp": {"type": "string", "enum": list(engine.registry.CAMPS)},
                    "left": {"type": "boolean"}, "was": {"type": "string", "enum": ROLE_IDS},
                    "voter": {"type": "boolean", "enum": [False]}, "face_up": {"type": "boolean", "enum": [True]}}),
    "MeView": _obj({"seat": SEAT, "name": {"type": "string"}, "captain": {"type": "boolean"}}, {
        "role": {"type": "string", "enum": ROLE_IDS}, "alive": {"type": "boolean"}, "lover": SEAT,
        "potions": _obj({"life": {"type": "boolean"}, "death": {"type": "boolean"}}),
        "protecting": NULLABLE_SEAT, "protected_last": NULLABLE_SEAT,
        "testament": _obj({}, {"hunter": SEAT, "succession": SEAT}),
        "was": {"type": "string", "enum": ROLE_IDS},
        "left": {"type": "boolean"}, **DECLARED_ME,
    }),
    "Step": _obj({"id": {"type": "string", "enum": STEP_IDS}, "seq": {"type": "integer"},
                  "deadline": ISO, "seconds_left": {"type": "number", "minimum": 0}},
                 {"night": {"type": "integer"}, "day": {"type": "integer"}, "actor": NULLABLE_SEAT,
                  "tied": {"type": "array", "items": SEAT}, "round": {"type": "integer", "minimum": 1}}),
    "Prompt": _obj({"step": {"type": "integer"}, "actions": {"type": "array", "minItems": 1, "items": _obj(
        {"action": {"type": "string", "enum": list(engine.ACTION_STEP)}},
        {"choices": {"type": "array", "items": SEAT}, "count": {"type": "integer"},
         "min": {"type": "integer", "minimum": 0}, "max": {"type": "integer", "minimum": 0},
         "nullable": {"type": "boolean"}, "current": NULLABLE_SEAT, "target": SEAT,
         "voted": {"type": "boolean"}, "cards": {"type": "array", "items": {"type": "string", "enum": ROLE_IDS}}})}}),
    "Catalog": _obj({"roles": {"type": "array", "items": _obj({
        "id": {"type": "string", "enum": ROLE_IDS}, "camp": {"type": "string"}, "name": {"type": "string"},
        "description": {"type": "string"}})},
        "steps": {"type": "array", "items": _obj({"id": {"type": "string", "enum": STEP_IDS},
                                                  "phase": {"type": "string", "enum": list(engine.registry.PHASES)}})},
        "night_order": {"type": "array", "items": {"type": "string", "enum": STEP_IDS}},
        "actions": {"type": "array", "items": _obj({
            "id": {"type": "string"}, "step": {"type": "string", "enum": STEP_IDS, "nullable": True},
            "kind": {"type": "string", "enum": list(engine.registry.CHOICE_KINDS)}})},
        "events": {"type": "array", "items": {"type": "string"}},
        "phases": {"type": "array", "items": {"type": "string", "enum": list(engine.registry.PHASES)},
                   "description": "a step's phase, night first (the pages darken at night)"},
        "presets": {"type": "array", "items": _obj({"id": {"type": "string"}, "name": {"type": "string"}})},
        "players": _obj({"min": {"type": "integer"}, "max": {"type": "integer"}})}),
    "Event": _obj({"seq": {"type": "integer", "minimum": 1}, "kind": {"type": "string"}},
                  {"at": ISO, "audience": {}}),
    # A line the Little Girl overheard has no author (RULES-VARIANTS A3.2).
    "Line": _obj({"seq": {"type": "integer", "minimum": 1}, "text": {"type": "string"}, "at": ISO},
                 {"seat": SEAT, "name": {"type": "string"}, "channel": {"type": "string", "enum": CHANNELS}}),
    "View": _obj({
        "version": {"type": "integer"},
        "status": {"type": "string", "enum": ["lobby", "running", "ended"]},
        "table": _ref("Table"),
        "me": {**_ref("MeView"), "nullable": True},
        "players": {"type": "array", "items": _ref("Player")},
        "composition": {"type": "object", "additionalProperties": {"type": "integer"}},
        "step": {**_ref("Step"), "nullable": True},
        "prompt": {**_ref("Prompt"), "nullable": True},
        "votes": {"type": "object", "additionalProperties": NULLABLE_SEAT},
        "events": {"type": "array", "items": _ref("Event")},
        "chat": {"type": "object", "additionalProperties": {"type": "array", "items": _ref("Line")}},
        "channels": _obj({"read": {"type": "array", "items": {"type": "string", "enum": CHANNELS}},
                          "write": {"type": "string", "enum": CHANNELS, "nullable": True},
                          "writable": {"type": "array", "items": {"type": "string", "enum": CHANNELS}}}),
        "winner": {"nullable": True, **_obj({
            "camp": {"type": "string", "enum": engine.registry.winner_camps()},
            "seats": {"type": "array", "items": SEAT}},
            {"reason": {"type": "string", "enum": list(engine.registry.WINNER_REASONS)}})},
    }, {
        "requests": {"type": "array", "items": SEAT},
        # an elimination round's ballots shown that weigh more than one (the Captain's), by voter
        "weights": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 2}},
        "designations": {"type": "object", "additionalProperties": NULLABLE_SEAT},
    }),
    # act and chat: my view after the write and its ETag, what my next poll would answer.
    "Written": _obj({"ok": {"type": "boolean", "enum": [True]}},
                    {"etag": {"type": "string"}, "view": _ref("View")}),
}


# Past games (werewolf/history.py, docs/API.md "Past games").
WINNER = SCHEMAS["View"]["properties"]["winner"]
_RATE = {"type": "number", "minimum": 0, "maximum": 1}
_TALLY = {"games": {"type": "integer", "minimum": 1}, "wins": {"type": "integer", "minimum": 0}, "win_rate": _RATE}
SCHEMAS.update({
    "PastGameItem": _obj({
        "id": {"type": "integer"}, "table": {"type": "string", "nullable": True}, "started_at": {"type": "number"},
        "seconds": {"type": "integer", "minimum": 0}, "nights": {"type": "integer", "minimum": 0}, "seat": SEAT,
        "role": {"type": "string", "enum": ROLE_IDS}, "camp": {"type": "string", "enum": list(engine.registry.CAMPS)},
        "won": {"type": "boolean"}, "winner": WINNER,
        "players": {"type": "array", "items": _obj({"seat": SEAT, "name": {"type": "string"}})}}),
    "PastGames": _obj({"games": {"type": "array", "items": _ref("PastGameItem")}}),
    "PastGame": _obj({
        "id": {"type": "integer"}, "table": {"type": "string", "nullable": True}, "started_at": {"type": "number"},
        "seconds": {"type": "integer", "minimum": 0}, "nights": {"type": "integer"}, "days": {"type": "integer"},
        "me": NULLABLE_SEAT, "host": {"type": "boolean"}, "shared": {"type": "boolean"},
        "share_url": {"type": "string", "nullable": True}, "replay": {"type": "boolean"},
        "composition": {"type": "object", "additionalProperties": {"type": "integer"}},
        "settings": {"type": "object"},
        "players": {"type": "array", "items": {**_ref("Player")}},
        "winner": WINNER,
        "events": {"type": "array", "items": _ref("Event")},
        "channels": {"type": "object", "additionalProperties": {"type": "array", "items": _ref("Line")}}}),
    # A replay's view: a view as the poll answered it, without the table part and the version.
    "ReplayView": {**SCHEMAS["View"], "required": [k for k in SCHEMAS["View"]["required"]
                                                   if k not in ("version", "table")]},
    "Replay": _obj({"id": {"type": "integer"}, "seat": NULLABLE_SEAT,
                    "steps": {"type": "array", "minItems": 1,
                              "items": _obj({"at": ISO, "view": _ref("ReplayView")})}}),
    "ShareUrl": _obj({"url": {"type": "string"}}),
    "Stats": _obj({
        "games": {"type": "integer", "minimum": 0}, "wins": {"type": "integer", "minimum": 0}, "win_rate": _RATE,
        "by_camp": {"type": "array", "items": _obj({"camp": {"type": "string", "enum": list(engine.registry.CAMPS)},
                                                    **_TALLY})},
        "by_card": {"type": "array", "items": _obj({"role": {"type": "string", "enum": ROLE_IDS}, **_TALLY})},
        "survival": _obj({"alive_at_end": {"type": "integer", "minimum": 0},
                          "nights_lived_average": {"type": "number", "minimum": 0}}),
        "leaderboard": {"type": "array", "items": _obj({
            "user_id": {"type": "integer"}, "name": {"type": "string"}, "me": {"type": "boolean"}, **_TALLY})}}),
})
SCHEMAS["Player"]["properties"]["won"] = {"type": "boolean", "description": "past games: among the winners"}

def _json(schema: dict, description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict:
    text = {400: "bad input (or a missing/wrong CSRF token: csrf_failed)", 401: "not logged in",
            403: "not allowed for you", 404: "no such table or seat (past games: no such game for you)",
            405: "method not allowed",
            409: "not now", 413: "body over 64 KiB", 429: "rate limited (see the Retry-After header)",
            503: "busy: the game moved too often meanwhile; try again"}
    return {str(s): _json(_ref("Error"), text[s]) for s in statuses}


WRITE = (400, 401, 403, 404, 409, 413)
TABLE_ID = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"}}
GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
SHARE_KEY = {"name": "key", "in": "query", "required": False, "schema": {"type": "string"},
             "description": "the key of the host's shared link: the end and the public replay without a seat"}
SCREEN_KEY = {"name": "key", "in": "query", "required": True, "schema": {"type": "string"},
              "description": "the room's screen's read-only key (table.screen_url); a wrong one is 404 table_not_found"}
LAST_EVENT_ID = {"name": "Last-Event-ID", "in": "header", "required": False, "schema": {"type": "string"},
                 "description": "the ETag of the view the caller has (EventSource sends it when it reconnects): "
                                "the stream starts with the next one"}
# A stream of views (API.md, "Streams").
STREAMED = {"200": {"description": "text/event-stream: `state` events (id: the view's ETag, data: the view as "
                                   "the state poll answers it) and a `beat` event when nothing is new",
                    "content": {"text/event-stream": {"schema": {
                        "type": "object", "description": "one event",
                        "properties": {"event": {"type": "string", "enum": ["state", "beat"]},
                                       "id": {"type": "string"}, "data": {"type": "string"},
                                       "retry": {"type": "integer"}}}}}},
            "503": _json(_ref("Error"), "too_busy: the server holds all the streams it can; poll instead")}
# A state poll's answer when the server would hold it (API.md, "Held polls").
HELD_POLL_HEADERS = {
    "Preference-Applied": {"schema": {"type": "string"}, "description": "wait=N: the server holds polls; poll again at once"},
    "Server-Timing": {"schema": {"type": "string"}, "description": "held;dur=<ms>: how long this answer was held"},
}


def _op(summary: str, ok: dict, errors=WRITE, body: dict | None = None, params=(), csrf=True) -> dict:
    op = {"summary": summary, "responses": {**ok, **_errors(*errors)}, "parameters": list(params)}
    if csrf:
        op["parameters"].append({"name": "X-CSRFToken", "in": "header", "required": False,
                                 "schema": {"type": "string"},
                                 "description": "the token of GET /api/me; required (else 400 csrf_failed)"})
    if body is not None:
        op["requestBody"] = {"required": False, "content": {"application/json": {"schema": body}}}
    return op


def document() -> dict:
    table_ok = {"200": _json(_ref("TableEnvelope"), "the table")}
    return {
        "openapi": "3.0.3",
        "info": {"title": "Loups-Garous en ligne", "version": "1",
                 "description": "The JSON API the pages use to play (see docs/API.md). "
                                "Session cookie from register/login; every POST, PATCH and "
                                "DELETE carries X-CSRFToken."},
        "paths": {
            "/api/openapi.json": {"get": _op("this document", {"200": {
                "description": "OpenAPI 3", "content": {"application/json": {"schema": {"type": "object"}}}}},
                errors=(), csrf=False)},
            "/api/catalog": {"get": _op(
                "the rules as data, in the reader's language (ETag; 304 when unchanged)",
                {"200": {**_json(_ref("Catalog"), "roles, steps, actions, events, limits, presets"),
                         "headers": {"ETag": {"schema": {"type": "string"}}}},
                 "304": {"description": "unchanged since the ETag given in If-None-Match"}},
                errors=(), csrf=False, params=[{"name": "If-None-Match", "in": "header", "required": False,
                                                "schema": {"type": "string"}}])},
            "/api/me": {
                "get": _op("who am I, and a CSRF token", {"200": _json(_ref("Me"), "me")},
                           errors=(), csrf=False),
                "delete": _op("delete my account (with my password) and log out",
                              {"200": _json(_ref("Ok"), "deleted")},
                              errors=(400, 401, 403, 413, 429), body=_ref("Password")),
            },
            "/api/me/push-subscription": {
                "post": _op("this browser's Web Push subscription for \"your turn\" (replaces the one of the "
                            "same endpoint; 409 push_not_configured without the server's VAPID keys)",
                            {"201": _json(_ref("Ok"), "subscribed")},
                            errors=(400, 401, 409, 413), body=_ref("PushSubscription")),
                "delete": _op("forget this browser's subscription (nothing happens if it is not mine)",
                              {"200": _json(_ref("Ok"), "forgotten")},
                              errors=(400, 401, 413), body=_ref("PushEndpoint")),
            },
            "/api/auth/register": {"post": _op("create an account and log in",
                                               {"201": _json(_ref("Registered"), "logged in (and seated)")},
                                               errors=(400, 403, 409, 413, 429), body=_ref("Registration"))},
            "/api/auth/password": {"post": _op("change my password; my other sessions are signed out",
                                               {"200": _json(_ref("Me"), "changed, still logged in here")},
                                               errors=(400, 401, 403, 413, 429), body=_ref("PasswordChange"))},
            "/api/auth/login": {"post": _op("log in", {"200": _json(_ref("Me"), "logged in")},
                                            errors=(400, 401, 413, 429), body=_ref("Credentials"))},
            "/api/auth/logout": {"post": _op("log out: this session ends on the server too",
                                             {"200": _json(_ref("Ok"), "logged out")}, errors=(400, 413))},
            "/api/auth/logout-everywhere": {"post": _op(
                "log out every session of the account, on every device", {"200": _json(_ref("Ok"), "logged out")},
                errors=(400, 401, 413))},
            "/api/tables": {
                "get": _op("tables waiting for players (ETag; 304 when unchanged)",
                           {"200": _json(_ref("TableList"), "tables"),
                            "304": {"description": "unchanged since the ETag given in If-None-Match"}},
                           errors=(401,), csrf=False),
                "post": _op("create a table (the caller hosts it)",
                            {"201": _json(_ref("TableEnvelope"), "created")},
                            errors=(400, 401, 409, 413), body=_ref("NewTable")),
            },
            "/api/tables/by-code/{code}": {"get": _op(
                "find a table by its code (codes matching no table are rate-limited)", table_ok,
                errors=(401, 404, 429), csrf=False,
                params=[{"name": "code", "in": "path", "required": True, "schema": {"type": "string"}}])},
            "/api/tables/{table_id}/join": {"post": _op("sit at a table", table_ok, params=[TABLE_ID])},
            "/api/tables/{table_id}/screen-link": {"post": _op(
                "host only: a new link for the room's screen (table.screen_url); the old one stops working",
                table_ok, params=[TABLE_ID])},
            "/api/tables/{table_id}/leave": {"post": _op(
                "leave a table; during a game the seat plays no more", table_ok, params=[TABLE_ID])},
            "/api/tables/{table_id}/end": {"post": _op(
                "end the running game for everyone (host): no winner, every card shown", table_ok,
                params=[TABLE_ID])},
            "/api/tables/{table_id}/start": {"post": _op("start the game (host)", table_ok, params=[TABLE_ID])},
            "/api/tables/{table_id}/reopen": {"post": _op("back to the lobby after the end (host)",
                                                          table_ok, params=[TABLE_ID])},
            "/api/tables/{table_id}/visibility": {"post": _op(
                "list the waiting table for everyone, or not (host, lobby)", table_ok, params=[TABLE_ID],
                body=_ref("Visibility"))},
            "/api/tables/{table_id}/settings": {"patch": _op(
                "change roles, wolves, Captain, options, rhythm, preset, time limits (host, lobby)", table_ok, params=[TABLE_ID],
                body=_ref("SettingsPatch"))},
            "/api/tables/{table_id}/seats/{number}": {"delete": _op(
                "remove a seated player (host, lobby)", table_ok, params=[
                    TABLE_ID, {"name": "number", "in": "path", "required": True,
                               "schema": {"type": "integer", "minimum": 0}}])},
            "/api/tables/{table_id}/events": {"get": _op(
                "my views as Server-Sent Events, each as it happens (API.md)", STREAMED,
                errors=(401, 403, 404), csrf=False, params=[TABLE_ID, LAST_EVENT_ID])},
            "/api/tables/{table_id}/state": {"get": _op(
                "my view of the table (ETag; 304 when unchanged; held with Prefer: wait=N, API.md)",
                {"200": {**_json(_ref("View"), "the caller's view"),
                         "headers": {"ETag": {"schema": {"type": "string"}}, **HELD_POLL_HEADERS}},
                 "304": {"description": "unchanged since the ETag given in If-None-Match",
                         "headers": HELD_POLL_HEADERS}},
                errors=(401, 403, 404), csrf=False, params=[
                    TABLE_ID, {"name": "If-None-Match", "in": "header", "required": False,
                               "schema": {"type": "string"}},
                    {"name": "Prefer", "in": "header", "required": False, "schema": {"type": "string"},
                     "description": f"wait=N (RFC 7240, whole seconds, at most {poll.MAX_WAIT:g}): a poll whose "
                                    "view has not changed is held until it does, on a server that holds polls"}])},
            "/api/tables/{table_id}/screen": {"get": _op(
                "the public view for the room's big screen (no account; the key from table.screen_url)",
                {"200": {**_json(_ref("View"), "the public view (me: null), exactly a spectator's"),
                         "headers": {"ETag": {"schema": {"type": "string"}}}},
                 "304": {"description": "unchanged since the ETag given in If-None-Match"}},
                errors=(404,), csrf=False, params=[
                    TABLE_ID, SCREEN_KEY,
                    {"name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"}}])},
            "/api/tables/{table_id}/screen/events": {"get": _op(
                "the room's screen's views as Server-Sent Events, as a seat's stream; a renewed key ends it",
                STREAMED, errors=(404,), csrf=False, params=[TABLE_ID, SCREEN_KEY, LAST_EVENT_ID])},
            "/api/me/games": {"get": _op(
                "my finished games, newest first", {"200": _json(_ref("PastGames"), "my games")},
                errors=(401,), csrf=False)},
            "/api/me/stats": {"get": _op(
                "my stats, and my group's leaderboard (only the games I played)",
                {"200": _json(_ref("Stats"), "my stats")}, errors=(401,), csrf=False)},
            "/api/games/{game_id}": {"get": _op(
                "a finished game's end: every card, the winners, the events, every channel (its players, "
                "or anyone with its shared link)", {"200": _json(_ref("PastGame"), "the end")},
                errors=(404, 409), csrf=False, params=[GAME_ID, SHARE_KEY])},
            "/api/games/{game_id}/replay": {"get": _op(
                "a finished game's views in order, the public one or a seat's (players only)",
                {"200": _json(_ref("Replay"), "the views in order")}, errors=(400, 404, 409), csrf=False,
                params=[GAME_ID, SHARE_KEY, {"name": "seat", "in": "query", "required": False,
                                             "schema": {"type": "string"}, "description": "a seat number"}])},
            "/api/games/{game_id}/share": {
                "post": _op("a read-only link to the end and the public replay (host)",
                            {"200": _json(_ref("ShareUrl"), "the link (the same one each time)")},
                            errors=(400, 401, 403, 404, 409, 413), params=[GAME_ID]),
                "delete": _op("stop sharing: the link opens nothing any more (host)",
                              {"200": _json(_ref("Ok"), "no longer shared")},
                              errors=(400, 401, 403, 404, 409, 413), params=[GAME_ID]),
            },
            "/api/tables/{table_id}/act": {"post": _op(
                "act in the current step", {"200": _json(_ref("Written"), "done, with my view now")}, params=[TABLE_ID],
                errors=WRITE + (429, 503), body=_ref("Action"))},
            "/api/tables/{table_id}/chat": {"post": _op(
                "write in a channel", {"201": _json(_ref("Written"), "posted, with my view now")}, params=[TABLE_ID],
                errors=WRITE + (429, 503), body=_ref("ChatMessage"))},
        },
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": {"session": {"type": "apiKey", "in": "cookie", "name": "session"}},
        },
    }


@bp.get("/api/openapi.json")
def openapi_json():
    return jsonify(document())
