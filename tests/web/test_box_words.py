"""How the box's cards are told (GET /api/catalog's event shapes, read as static/js/story.js reads
them): a pardoned Idiot's round reads as a pardon, the Raven's votes are told under the count,
the Elder's spent life is on the end's timeline. Every key in French, English and Chinese."""
import pytest
from flask_babel import force_locale

from werewolf.web import strings


def holds(event: dict, when: dict) -> bool:
    """story.js's holds(): true/false for set or not (null, absent, false, []), null for absent."""
    for path, wanted in when.items():
        value = event
        for key in path.split("."):
            value = value.get(key) if isinstance(value, dict) else None
        is_set = value not in (None, False, [])
        if wanted is None and value is not None:
            return False
        if wanted is True and not is_set or wanted is False and is_set:
            return False
        if wanted not in (None, True, False) and value != wanted:
            return False
    return True


def said(shape: dict, event: dict, timeline: bool = False) -> list[str]:
    """The keys an event is told with: every Say that holds (``each``) or the first."""
    says = shape["timeline"] if timeline and shape["timeline"] is not None else shape["says"]
    keys = [say["key"] for say in says if holds(event, say["when"])]
    return keys if shape["each"] else keys[:1]


@pytest.fixture
def shapes(make_player):
    return make_player().request("GET", "/api/catalog").get_json()["event_shapes"]


ROUND = {"kind": "vote_result", "day": 1, "tally": {"2": 3}, "eliminated": 2, "tied": []}


@pytest.mark.parametrize("fields, keys", [
    ({}, ["ev.vote_result"]),
    ({"pardoned": 2}, ["ev.vote_pardoned"]),
    ({"raven": {"target": 2, "votes": 2}}, ["ev.vote_result", "ev.vote_raven"]),
    ({"pardoned": 2, "raven": {"target": 2, "votes": 2}}, ["ev.vote_pardoned", "ev.vote_raven"]),
    ({"eliminated": None, "tied": [2, 3]}, ["ev.vote_tie"]),
    ({"eliminated": None, "tied": [2, 3], "scapegoat": 5}, ["ev.vote_scapegoat"]),
    ({"eliminated": None, "tied": [2, 3], "raven": {"target": 3, "votes": 2}}, ["ev.vote_tie", "ev.vote_raven"]),
    ({"eliminated": None, "tally": {}}, ["ev.vote_none"]),
    ({"eliminated": None, "candidates": [2, 4]}, ["ev.stake_candidates"]),
])
def test_a_round_s_result_says_one_outcome_then_the_raven_s_votes(shapes, fields, keys):
    assert said(shapes["vote_result"], {**ROUND, **fields}) == keys


def test_the_elder_s_spent_life_is_on_the_timeline_and_nothing_else_of_the_night_summary(shapes):
    summary = {"kind": "night_summary", "night": 1, "victim": 2, "saved": False, "poisoned": None}
    assert said(shapes["night_summary"], {**summary, "elder_life": 2}, timeline=True) == ["tl.elder_life"]
    assert said(shapes["night_summary"], summary, timeline=True) == []


@pytest.mark.parametrize("locale, words", [
    ("fr", ("vote contre Alice", "a ajouté 2 voix contre Alice", "Ancien (Alice) survit")),
    ("en", ("votes against Alice", "added 2 votes against Alice", "Elder (Alice) survives")),
    ("zh_Hant", ("投票放逐Alice", "烏鴉對Alice加了 2 票", "長老（Alice）挺過")),
])
def test_the_new_lines_in_three_languages(app, locale, words):
    with app.test_request_context(), force_locale(locale):
        said = strings.client_strings()
    filled = [said[key].replace("{name}", "Alice").replace("{votes}", "2")
              for key in ("ev.vote_pardoned", "ev.vote_raven", "tl.elder_life")]
    for text, word in zip(filled, words):
        assert word in text, (text, word)


@pytest.mark.parametrize("locale", ["fr", "en", "zh_Hant"])
def test_every_menu_step_has_its_prompt_s_title(app, make_player, locale):
    """A menu's title is "prompt.<step>" (static/js/table-game.js): the Wolf-Father's was missing."""
    steps = make_player().request("GET", "/api/catalog").get_json()["steps"]
    with app.test_request_context(), force_locale(locale):
        said = strings.client_strings()
    menus = [s["id"] for s in steps if s["layout"] == "menu"]
    assert "wolf_father" in menus and not [m for m in menus if not said.get(f"prompt.{m}")]


def test_the_raven_s_line_names_the_player_not_his_seat_number(shapes):
    """A path into an object field says its type (story.js writes a seat as a name)."""
    say = next(s for s in shapes["vote_result"]["says"] if s["key"] == "ev.vote_raven")
    assert say["args"] == {"name": ["raven.target", "seat"], "votes": ["raven.votes", "int"]}
