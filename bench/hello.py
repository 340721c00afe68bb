"""The ceiling of this machine: a minimal Flask app served by the same gunicorn settings.

``bench/load.py`` runs it with the project's ``gunicorn.conf.py`` (``bench.hello:app``)
and measures it with the same ``wrk`` client and connection count as the state poll.
"""
from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello():
    return "Hello, World!"
