"""The template of a new card (werewolf/engine/roles/_template.py) is true: registered in a
fresh interpreter (the registry is shared by every test here), it deals, wakes, acts, tells
its event, adds its view field, and shows in the catalog and the OpenAPI description."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import importlib.util, json, sys
sys.path.insert(0, "tests/kit")
from werewolf import engine
from werewolf.engine import registry
spec = importlib.util.spec_from_file_location("werewolf.engine.roles.gravedigger", "werewolf/engine/roles/_template.py")
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
from rolekit import CARDS, RoleTable
CARDS["gd"] = "gravedigger"
t = RoleTable("W gd V V seer witch")
t.until("gravedigger")
t.do(2, "gravedigger.name", 1)
while t.step != "dawn":
    t.timeout()
learned = t.last("gravedigger_learns")
shown = engine.catalog()
from werewolf.web import openapi
print(json.dumps({"learned": {k: learned[k] for k in ("target", "camp")}, "me": t.view(2)["me"].get("learned_camps"),
                  "others": "learned_camps" in t.view(3)["me"], "kinds": "gravedigger_learns" in shown["events"],
                  "shape": shown["event_shapes"]["gravedigger_learns"]["moment"],
                  "step": [s["id"] for s in shown["steps"] if s["role"] == "gravedigger"],
                  "openapi": "learned_camps" in openapi.SCHEMAS["MeView"]["properties"]}))
"""


def test_the_template_is_a_working_card():
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == {"learned": {"target": 1, "camp": "wolves"}, "me": {"1": "wolves"}, "others": False,
                    "kinds": True, "shape": True, "step": ["gravedigger"], "openapi": True}


def test_the_template_is_never_dealt_as_a_card():
    from werewolf.engine import registry
    assert "gravedigger" not in registry.ROLES
