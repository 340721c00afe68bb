"""Language choice: ``?lang=`` (remembered in a cookie), then the cookie, then the browser's
Accept-Language on a first visit, else French.

A language has a short code for links and the cookie (``fr``, ``en``, ``zh``) and a
catalog locale: Chinese is Traditional (``zh_Hant``, RULES-VARIANTS A10).
"""
from flask import current_app, request

from ..languages import CATALOG_LOCALES

LANG_COOKIE = "lang"
HTML_LANG = {"zh": "zh-Hant"}  # BCP 47, so browsers pick Traditional glyphs
LANGUAGE_NAMES = {"fr": "FR", "en": "EN", "zh": "中文"}


def requested_language() -> str | None:
    lang = request.args.get("lang")
    return lang if lang in current_app.config["LANGUAGES"] else None


def language() -> str:
    """The short code of the page's language."""
    languages = current_app.config["LANGUAGES"]
    lang = requested_language() or request.cookies.get(LANG_COOKIE)
    if lang in languages:
        return lang
    # First visit: the browser's preference ("zh-TW", "zh-CN", "en-GB" match by their first part).
    best = request.accept_languages.best_match(languages)
    return best or current_app.config["BABEL_DEFAULT_LOCALE"]


def select_locale() -> str:
    lang = language()
    return CATALOG_LOCALES.get(lang, lang)


def remember_language(response):
    lang = requested_language()
    if lang:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="Lax")
    return response
