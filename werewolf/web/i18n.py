"""Language choice: ``?lang=`` (remembered in a cookie), then the cookie, else French."""
from flask import current_app, request

LANG_COOKIE = "lang"


def requested_language() -> str | None:
    lang = request.args.get("lang")
    return lang if lang in current_app.config["LANGUAGES"] else None


def select_locale() -> str:
    lang = requested_language() or request.cookies.get(LANG_COOKIE)
    if lang in current_app.config["LANGUAGES"]:
        return lang
    return current_app.config["BABEL_DEFAULT_LOCALE"]


def remember_language(response):
    lang = requested_language()
    if lang:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="Lax")
    return response
