"""What the browser may keep and how small it travels.

- Static files are fingerprinted: ``url_for('static', filename=...)`` adds ``?v=<hash of
  the file>``, and such a URL is cached for a year (a changed file gets a new URL).
- Pages and the lobby's table list are gzipped (Flask-Compress) when the browser accepts
  it and the body is worth it; 304s carry no body and are never compressed. The state
  poll is left alone: compressed, a view's size would tell what it holds (night views
  are padded to one size, werewolf/web/poll.py).
"""
import hashlib
from pathlib import Path

from flask import Flask, request
from flask_compress import Compress

compress = Compress()
YEAR = 365 * 24 * 3600


def register(app: Flask) -> None:
    app.config.setdefault("COMPRESS_REGISTER", False)   # only the routes marked @compressed
    app.config.setdefault("COMPRESS_ALGORITHM", ["gzip"])
    app.config.setdefault("COMPRESS_LEVEL", 6)
    app.config.setdefault("COMPRESS_MIN_SIZE", 1000)
    compress.init_app(app)
    hashes: dict[str, str] = {}

    def fingerprint(filename: str) -> str | None:
        if filename not in hashes:
            path = Path(app.static_folder, filename)
            hashes[filename] = hashlib.sha256(path.read_bytes()).hexdigest()[:12] if path.is_file() else ""
        return hashes[filename] or None

    @app.url_defaults
    def _static_version(endpoint, values):
        if endpoint == "static" and "filename" in values and "v" not in values:
            version = fingerprint(values["filename"])
            if version:
                values["v"] = version

    @app.after_request
    def _cache_fingerprinted(response):
        if request.endpoint == "static" and request.args.get("v") and response.status_code in (200, 304):
            response.cache_control.public = True
            response.cache_control.max_age = YEAR
            response.cache_control.immutable = True
        return response


compressed = compress.compressed
