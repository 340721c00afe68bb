"""The Flask application factory."""
import os
import secrets
import time
from pathlib import Path

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from .. import database, scheduler, schema, service
from ..extensions import babel, csrf, db, login_manager

ROOT = Path(__file__).resolve().parents[2]

DEFAULTS = {
    "TIME_SCALE": 1.0,
    # State polls a process holds at most until the viewer's view changes (Prefer: wait,
    # web/poll.py): each keeps a connection while it waits. gunicorn.conf.py sets it from
    # its connections; beyond it, polls answer at once. 0: none held.
    "HELD_POLLS": 32,
    # Seconds a stream of views lasts (GET /api/tables/<id>/events); the browser opens the
    # next one at once. Its heartbeats keep a proxy's idle time-out from cutting it before.
    "STREAM_SECONDS": 300,
    "SCHEDULER": True,  # the deadline job; tests switch it off and move a fake clock
    "PROXY_COUNT": 0,  # reverse proxies in front that set X-Forwarded-* headers
    "REGISTRATION": "open",  # "open" | "closed" | "invite" (only with a table's link or code)
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "WTF_CSRF_TIME_LIMIT": None,  # a game lasts longer than Flask-WTF's default hour
    "WTF_CSRF_SSL_STRICT": True,
    "BABEL_DEFAULT_LOCALE": "fr",
    "BABEL_TRANSLATION_DIRECTORIES": str(ROOT / "translations"),
    "LANGUAGES": ["fr", "en", "zh"],
    "PASSWORD_HASH_METHOD": "scrypt",
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_HTTPONLY": True,
    "REMEMBER_COOKIE_SAMESITE": "Lax",
    "REMEMBER_COOKIE_HTTPONLY": True,
    "REMEMBER_COOKIE_DURATION": 30 * 24 * 3600,
}


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_path=os.environ.get("WEREWOLF_INSTANCE_PATH", str(ROOT / "instance")),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.update(DEFAULTS)
    app.config["SQLALCHEMY_DATABASE_URI"] = "sqlite:///" + os.path.join(app.instance_path, "werewolf.db")
    app.config.from_prefixed_env("WEREWOLF")
    if test_config:
        app.config.update(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret_key(app.instance_path)
    time_scale = float(app.config["TIME_SCALE"])
    if not time_scale > 0:
        raise ValueError("WEREWOLF_TIME_SCALE must be a positive number")
    app.config["TIME_SCALE"] = time_scale
    if app.config["REGISTRATION"] not in service.REGISTRATION_MODES:
        raise ValueError("WEREWOLF_REGISTRATION must be one of " + ", ".join(service.REGISTRATION_MODES))
    app.extensions["werewolf.clock"] = app.config.get("CLOCK") or time.time
    from .http import StrictJSONProvider, StrictRequest
    app.json, app.request_class = StrictJSONProvider(app), StrictRequest  # bodies judged at the door
    app.json.sort_keys = False

    if app.config["PROXY_COUNT"]:
        n = int(app.config["PROXY_COUNT"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n, x_host=n, x_prefix=n)

    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = database.engine_options(
        app.config["SQLALCHEMY_DATABASE_URI"], app.config.get("SQLALCHEMY_ENGINE_OPTIONS"))
    db.init_app(app)
    from_cli = os.environ.get("FLASK_RUN_FROM_CLI") == "true"
    if from_cli:
        schema.init_migrate(app)
    login_manager.init_app(app)
    csrf.init_app(app)
    from .i18n import select_locale
    babel.init_app(app, locale_selector=select_locale)

    from . import api, auth, catalog, cli, errors, games, lobby, openapi, pages, screen
    for module in (auth, lobby, api, catalog, openapi, pages, screen, games):
        app.register_blueprint(module.bp)
    from . import phone
    phone.register(app)  # the installable app and Web Push (VAPID settings)
    errors.register(app)
    cli.register(app)
    from . import security
    security.register(app)  # headers, cookie flags, rate limits (after the routes exist)
    from . import assets
    assets.register(app)

    with app.app_context():
        database.configure_engine(db.engine)
        # `flask --app app ...` commands see to the schema themselves (init-db, upgrade-db,
        # db ...): `db migrate` must compare the models with the database as it was.
        if not from_cli:
            schema.prepare()

    if app.config["SCHEDULER"] and not app.config.get("TESTING"):
        scheduler.start(app)
    return app


def _instance_secret_key(instance_path: str) -> str:
    """Read the key kept in instance/, creating it on first run (safe with several workers)."""
    path = os.path.join(instance_path, "secret_key")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):  # another worker may be writing it right now
            with open(path) as f:
                key = f.read().strip()
            if key:
                return key
            time.sleep(0.1)
        raise RuntimeError(f"{path} is empty")
    key = secrets.token_hex(32)
    with os.fdopen(fd, "w") as f:
        f.write(key + "\n")
    return key
