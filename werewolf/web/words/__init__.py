"""Every card's words, one file per module of the engine (``words/<module id>.py``).

A words file holds ``WORDS``: {string key: lazy_gettext text}, the keys the pages read
(``role.<id>``, ``role_a.<id>``, ``role_help.<id>``, ``step.<step>``, ``limit.<step>``,
``prompt.<action>``, ``btn.<action>``, each key its Event's Says name, ``winner.<camp>``,
``why.<camp>``...), and, for a card, ``RULES``: its section of the rules page, one text a
paragraph. Nothing lists the files: each one here is read (pybabel extracts them with the
rest of werewolf/, babel.cfg).
"""
import functools
import importlib
import pkgutil


@functools.cache
def files() -> dict:
    """module id -> its words file (imported once)."""
    return {info.name: importlib.import_module(f"{__name__}.{info.name}")
            for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name)
            if not info.name.startswith("_")}


@functools.cache
def keys() -> dict:
    """string key -> the words file that says it (a key said twice is refused at once)."""
    out: dict = {}
    for module_id, words in files().items():
        for key in words.WORDS:
            if key in out:
                raise ValueError(f"words: {key} in both {out[key]} and {module_id}")
            out[key] = module_id
    return out


def client_words() -> dict:
    """Every file's words in the current language (the pages' strings, strings.py)."""
    keys()   # a key said twice stops here
    return {key: str(text) for words in files().values() for key, text in words.WORDS.items()}


def rules_section(module_id: str) -> list:
    """A card's paragraphs on the rules page, in the current language (none: [])."""
    words = files().get(module_id)
    return [str(text) for text in getattr(words, "RULES", ())]
