"""``GET /api/catalog``: the rules as data (engine.catalog) with names and descriptions
in the reader's language. The pages read it once; it is cached with an ETag."""
import hashlib
import json

from flask import Blueprint, Response, request
from flask_babel import get_locale

from .. import engine
from .strings import client_strings

bp = Blueprint("catalog", __name__)


def localized_catalog() -> dict:
    strings = client_strings()
    out = engine.catalog()
    for role in out["roles"]:
        role["name"] = strings.get(f"role.{role['id']}", role["id"])
        role["description"] = strings.get(f"role_help.{role['id']}", "")
    for step in out["steps"]:
        step["name"] = strings.get(f"limit.{step['id']}", step["id"])
    for option in out["options"]:
        option["name"] = strings.get(f"option.{option['id']}", option["id"])
        option["description"] = strings.get(f"option_help.{option['id']}", "")
        if "values" in option:   # a choice: each value's words (strings "<option>.<value>")
            option["value_names"] = {str(v): strings.get(f"{option['id']}.{v}", str(v)) for v in option["values"]}
            option["value_help"] = {str(v): strings.get(f"{option['id']}_help.{v}", "") for v in option["values"]}
    for preset in out["presets"]:
        preset["name"] = strings.get(f"preset.{preset['id']}", preset["id"])
        preset["description"] = strings.get(f"preset_help.{preset['id']}", "")
    out["option_groups"] = [{"id": group, "name": strings.get(f"group.{group}", group)}
                            for group in out["option_groups"]]
    out["rhythms"] = [{"id": rhythm, "name": strings.get(f"rhythm.{rhythm}", rhythm),
                       "description": strings.get(f"rhythm_help.{rhythm}", "")} for rhythm in out["rhythms"]]
    out["locale"] = str(get_locale())
    return out


@bp.get("/api/catalog")
def catalog():
    body = json.dumps(localized_catalog(), ensure_ascii=False, separators=(",", ":"))
    etag = '"' + hashlib.sha256(body.encode()).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language"}
    if etag in request.headers.get("If-None-Match", ""):
        return Response(status=304, headers=headers)
    return Response(body, mimetype="application/json", headers=headers)
