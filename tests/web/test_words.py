"""Each card's presentation (engine registry: Event, Say, `me`) and its words file
(werewolf/web/words/<id>.py): every declared sentence has its words in every language,
every declared `me` field is in the OpenAPI description, no key is said twice."""
import html
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from flask_babel import force_locale

from tests.kit.saykit import said_keys
from werewolf import engine
from werewolf.engine import registry
from werewolf.web import openapi, strings, words

LOCALES = ("fr", "en", "zh_Hant")


def declaredsaid_keys() -> set:
    """Every words key an event kind, a moment's title or a step's prompt may say."""
    catalog = engine.catalog()
    keys = set()
    for shape in catalog["event_shapes"].values():
        moment = shape["moment"] if isinstance(shape["moment"], list) else []
        keys.update(said_keys([*shape["says"], *(shape["timeline"] or []), *moment]))
    for step in catalog["steps"]:
        keys.update(said_keys(step["info"]))
    # a menu's buttons and a one-button prompt's say btn.<action>
    for step in catalog["steps"]:
        if step["layout"]:
            keys.update(f"btn.{action}" for action in step["actions"])
    return keys


@pytest.mark.parametrize("locale", LOCALES)
def test_every_declared_sentence_has_its_words(app, locale):
    with app.test_request_context(), force_locale(locale):
        said = strings.client_strings()
        missing = {key for key in declaredsaid_keys() if not said.get(key)}
        assert not missing, missing


def test_a_translated_words_file_is_translated(app):
    with app.test_request_context():
        with force_locale("fr"):
            french = words.client_words()
        with force_locale("en"):
            english = words.client_words()
    assert french["role.plague_bearer"] == "Pesteux" and english["role.plague_bearer"] != "Pesteux"


def test_no_key_is_said_in_two_places(app):
    with app.test_request_context():
        files = words.client_words()
        base = {key for key in strings.client_strings() if key not in files}
    assert words.keys() and not set(words.keys()) & base
    # strings.py itself says none of a words file's keys (the file's value is the one served)
    text = Path(strings.__file__).read_text(encoding="utf-8")
    assert not [key for key in words.keys() if f'"{key}"' in text]


def test_each_words_file_is_a_module_of_the_engine():
    assert set(words.files()) <= set(registry.MODULES) | set(registry.OPTIONS)


def test_the_declared_view_fields_are_described():
    described = openapi.SCHEMAS["MeView"]["properties"]
    for module in registry.MODULES.values():
        for field in module.me:
            assert field in described, (module.id, field)
    assert described["contaminated"] == {"type": "array", "items": openapi.SEAT}


def test_the_winners_are_the_registrys():
    enum = openapi.SCHEMAS["View"]["properties"]["winner"]["properties"]["camp"]["enum"]
    assert enum == registry.winner_camps() == engine.catalog()["winners"]
    assert "plague_bearer" in enum and registry.CAMP_WINNER[registry.WOLVES] == "werewolves"


def test_a_declaration_with_an_unknown_type_is_refused():
    with pytest.raises(ValueError):
        registry.Role("nobody_at_all", me={"x": "colour"})
    with pytest.raises(ValueError):
        registry.Role("nobody_at_all", events=(registry.Event("x", {"y": "colour"}),))


def test_events_keep_their_kinds_and_their_shapes():
    bearer = registry.ROLES["plague_bearer"]
    assert bearer.events == ("plague_infect", "contaminated")
    assert [shape.kind for shape in bearer.shapes] == ["plague_infect", "contaminated"]
    assert engine.catalog()["event_shapes"]["contaminated"]["timeline"] == []


def test_the_kernels_declarations_use_known_types():
    from werewolf.engine.catalog import KERNEL_SHAPES
    for shape in KERNEL_SHAPES:
        registry.check_field_type(shape.kind, shape.fields)


def test_the_rules_page_reads_a_cards_section_from_its_words_file(app):
    with app.test_request_context(), force_locale("fr"):
        from werewolf.web import rules_page
        section = next(r for r in rules_page.roles() if r["id"] == "plague_bearer")["paragraphs"]
    assert len(section) == 2 and section[0].startswith("Il joue seul.")


# French typography (issue 35): a no-break space (U+00A0, or the narrow U+202F) before « : ; ? ! »
# and inside « »; a plain space there lets the sign wrap alone to the next line.
FRENCH_SPACE = re.compile(r" [:;?!»]|«[^\u00a0\u202f]|[^\W\d_][:;?!»](?:\s|$)")
ROOT = Path(__file__).resolve().parents[2]


def spaced_wrong(text: str) -> list[str]:
    """Where a French sign has a plain space or none (a colon inside a word or a number,
    "12:30", "https:", is no French sign)."""
    return [text[max(0, m.start() - 20):m.end() + 5] for m in FRENCH_SPACE.finditer(text)]


def french_sources() -> list[str]:
    """Every French string of the sources, as the catalogs are extracted (babel.cfg)."""
    found = []
    for method, pattern in (("python", "werewolf/**.py"), ("jinja2", "templates/**.html")):
        keywords = {"_": None, "_l": None, "gettext": None, "ngettext": (1, 2)}
        for _file, _line, message, _comments, _context in extract_from_dir(
                ROOT, method_map=[(pattern, method)], keywords=keywords, comment_tags=()):
            found.extend(message if isinstance(message, tuple) else [message])
    return found


def test_every_french_string_has_its_no_break_spaces():
    strings_found = french_sources()
    assert len(strings_found) > 500
    wrong = {text: spaced_wrong(text) for text in strings_found if spaced_wrong(text)}
    assert not wrong, wrong


@pytest.mark.parametrize("path", ["/rules", "/login", "/register"])
def test_french_pages_have_their_no_break_spaces(client, path):
    page = client.get(path, headers={"Accept-Language": "fr"}).get_data(as_text=True)
    body = re.sub(r"<(script|style)\b.*?</\1>", "", page.split("<body", 1)[1], flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", "", body))
    assert "Voyante" in text or "compte" in text
    assert not spaced_wrong(text), spaced_wrong(text)


def test_the_scripts_french_words_have_their_no_break_spaces(app):
    with app.test_request_context(), force_locale("fr"):
        said = strings.client_strings()
    wrong = {key: value for key, value in said.items() if isinstance(value, str) and spaced_wrong(value)}
    assert not wrong, wrong


def test_every_card_has_its_article_in_every_language(app):
    """« c’était le Salvateur », "they were the Guard": a card inside a sentence has its article."""
    for locale in LOCALES:
        with app.test_request_context(), force_locale(locale):
            said = strings.client_strings()
        missing = [role for role in registry.ROLES if not said.get(f"role_a.{role}")]
        assert not missing, (locale, missing)
    with app.test_request_context(), force_locale("fr"):
        said = strings.client_strings()
    assert said["role_a.guard"] == "le Salvateur" and said["role_a.seer"] == "la Voyante"
    with app.test_request_context(), force_locale("en"):
        assert strings.client_strings()["role_a.guard"] == "the Guard"
