"""What text the game takes, for every text field: names, passwords, chat (and the JSON
bodies that carry them, see web/http.py).

- Valid Unicode only. JSON's ``\\ud800`` escapes can carry a lone surrogate, which no
  encoder writes (a UTF-8 database, a hash, a response): refused everywhere.
- A name shows as something, and as itself: no control or format characters (bidi
  controls, zero-width characters), no character that is a letter by its category yet
  draws nothing (the Hangul fillers, the blank Braille cell), no stack of combining marks.
- A chat message cannot reverse or hide text: format characters (bidi controls such as
  U+202E, zero-width characters) are taken out, except a zero-width joiner between two
  visible characters (emoji sequences, Persian or Indic spelling), and stacks of
  combining marks are cut short. Stripped rather than refused: a phone's keyboard puts
  a direction mark in honest Arabic or Hebrew text.
"""
import unicodedata

# Combining marks in a row on one character: Vietnamese, Thai or Tibetan need up to 3 or 4,
# "zalgo" text piles dozens to spill over the lines around it.
MAX_MARKS = 4
# Letters or symbols by category that draw nothing (most are Default_Ignorable in Unicode's
# DerivedCoreProperties, which unicodedata does not expose).
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u034f\u1cbb\u1cbc")
_JOINERS = frozenset("\u200c\u200d")
_MESSAGE_CONTROLS = frozenset("\t\n")


class TextRefused(ValueError):
    """Text that no field takes; ``code`` and ``message`` as the engine's IllegalAction."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code, self.message = code, message


def is_unicode(text: str) -> bool:
    """Whether ``text`` can be encoded at all: no lone surrogate."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _visible(char: str) -> bool:
    return unicodedata.category(char)[0] in "LNPS" and char not in BLANKS


def _too_many_marks(text: str) -> bool:
    run = 0
    for char in text:
        run = run + 1 if unicodedata.category(char)[0] == "M" else 0
        if run > MAX_MARKS:
            return True
    return False


def folded(value: str) -> str:
    """A name as it is kept and looked up: NFC, whitespace folded to single spaces."""
    return " ".join(unicodedata.normalize("NFC", value).split())


def name(value, limit: int) -> str:
    """A player's or a table's name: whitespace folded to single spaces, NFC, 1 to ``limit``
    characters that show; raises TextRefused("invalid_name") otherwise."""
    if not isinstance(value, str) or not is_unicode(value):
        raise TextRefused("invalid_name", "A name must be text.")
    kept = folded(value)
    shown = (kept and len(kept) <= limit and unicodedata.category(kept[0])[0] != "M"
             and all(c == " " or unicodedata.category(c)[0] in "LNPSM" and c not in BLANKS for c in kept)
             and not _too_many_marks(kept))
    if not shown:
        raise TextRefused("invalid_name", f"A name has 1 to {limit} characters that show, "
                                          "without invisible or direction characters.")
    return kept


def message(value, limit: int) -> str:
    """A chat message as shown: format characters out (a joiner between two visible
    characters kept), stacks of combining marks cut to MAX_MARKS. Raises TextRefused:
    "text_invalid" (not Unicode, control characters), "text_too_long", "text_empty"
    (nothing that shows)."""
    if not isinstance(value, str):
        raise TextRefused("bad_request", "the text must be a string")
    if len(value) > limit:
        raise TextRefused("text_too_long", f"at most {limit} characters")
    if not is_unicode(value):
        raise TextRefused("text_invalid", "the message is not valid Unicode")
    out: list[str] = []
    marks = 0
    for i, char in enumerate(value):
        category = unicodedata.category(char)
        if category == "Cc" and char not in _MESSAGE_CONTROLS:
            raise TextRefused("text_invalid", "the message holds control characters")
        if category == "Cf":
            before = out[-1] if out else " "
            joins = (char in _JOINERS and (_visible(before) or unicodedata.category(before)[0] == "M")
                     and i + 1 < len(value) and _visible(value[i + 1]))
            if not joins:
                continue
        marks = marks + 1 if category[0] == "M" else 0
        if marks > MAX_MARKS:
            continue
        out.append(char)
    text = "".join(out)
    if not any(map(_visible, text)):
        raise TextRefused("text_empty", "the message is empty")
    return text
