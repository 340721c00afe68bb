"""The end tells the story for every reader (issue 35, point 4): each event's line in the
end's timeline is in the third person — never a private « Tu protèges Hugo » shown on the
phones of those it was not for."""
import re

import pytest
from flask_babel import force_locale

from werewolf.engine.catalog import catalog
from werewolf.web import strings

# Words of the second person (fr, en) or of a reader's own (zh), as a whole word.
SECOND_PERSON = {
    "fr": re.compile(r"\b(?:tu|te|t’|toi|ton|ta|tes|vous|votre|vos)\b", re.IGNORECASE),
    "en": re.compile(r"\b(?:you|your|yours)\b", re.IGNORECASE),
    "zh_Hant": re.compile(r"你|您"),
}


def timeline_keys() -> dict[str, str]:
    """Every words key an event's timeline may say: kind -> keys (declared timeline, else its says)."""
    keys = {}
    for kind, shape in catalog()["event_shapes"].items():
        says = shape["says"] if shape.get("timeline") is None else shape["timeline"]
        stack = list(says)
        while stack:
            say = stack.pop()
            if say.get("key"):
                keys[say["key"]] = kind
            for arg in (say.get("args") or {}).values():
                if isinstance(arg, dict) and arg.get("says"):
                    stack.extend(arg["says"])
    return keys


@pytest.mark.parametrize("locale", list(SECOND_PERSON))
def test_every_timeline_line_is_in_the_third_person(app, locale):
    with app.test_request_context(), force_locale(locale):
        said = strings.client_strings()
    wrong = {key: said.get(key) for key in timeline_keys() if SECOND_PERSON[locale].search(said.get(key) or "")}
    assert not wrong, wrong
