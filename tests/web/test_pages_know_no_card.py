"""The page scripts know no card, step or action (issue 34): every rule they need comes from
the catalog (GET /api/catalog) or the view. The ids are the engine's own, read from its catalog;
a string literal of static/js/ that is one of them fails, even in a meaning of the page's own
(a CSS class, a words key): the pages name theirs apart (`count-line`, `night_n`), and take
the night's phase from the catalog's `phases`."""
import re
from pathlib import Path

from werewolf import engine

JS = Path(__file__).resolve().parents[2] / "static" / "js"
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|`((?:[^`\\]|\\.)*)`')


def engine_ids() -> set:
    catalog = engine.catalog()
    return ({r["id"] for r in catalog["roles"]} | {s["id"] for s in catalog["steps"]}
            | {a["id"] for a in catalog["actions"]})


def found_ids(source: str, ids: set) -> list:
    out = []
    for match in LITERAL.finditer(source):
        text = next(group for group in match.groups() if group is not None)
        words = set(re.findall(r"[a-z_]+(?:\.[a-z_]+)?", text)) if match.group(3) is not None else {text}
        # a words key naming one: "step.election", "prompt.witch.poison"
        words |= {text.split(".", 1)[1]} if "." in text and match.group(3) is None else set()
        for word in words & ids:
            out.append((source[:match.start()].count("\n") + 1, word))
    return out


def test_no_page_script_names_a_card_a_step_or_an_action():
    ids = engine_ids()
    assert {"witch", "witch.done", "hunter", "little_girl", "dawn", "runoff", "election",
            "night", "tally", "vote", "medium"} <= ids
    found = {path.name: hits for path in sorted(JS.glob("*.js")) if (hits := found_ids(path.read_text(), ids))}
    assert not found, found


def test_the_check_finds_an_id():
    ids = engine_ids()
    assert found_ids('if (actions["witch.done"]) x = "little_girl";', ids) == [(1, "witch.done"), (1, "little_girl")]
    assert found_ids("const key = `${step}` + 'runoff';", ids) == [(1, "runoff")]
    assert found_ids('el("li", { class: "count-line" }, t("night_n"))', ids) == []
    # a page's own word that an id shares is still found: the page names its own apart
    assert found_ids('el("li", { class: "tally" }, t("night"), { dateStyle: "medium" })', ids) == [
        (1, "tally"), (1, "night"), (1, "medium")]
    assert found_ids('t("step.election")', ids) == [(1, "election")]
