"""Configuration from the environment, and the secret key kept in instance/."""
import os

import pytest

from werewolf.web import create_app


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("WEREWOLF_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("WEREWOLF_SQLALCHEMY_DATABASE_URI", f"sqlite:///{tmp_path / 'env.db'}")
    monkeypatch.setenv("WEREWOLF_SCHEDULER", "false")
    monkeypatch.delenv("WEREWOLF_SECRET_KEY", raising=False)
    return tmp_path


def test_settings_come_from_prefixed_environment_variables(env, monkeypatch):
    monkeypatch.setenv("WEREWOLF_TIME_SCALE", "0.25")
    app = create_app()
    assert app.config["TIME_SCALE"] == 0.25
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("env.db")
    assert app.config["SCHEDULER"] is False


def test_a_secret_key_is_generated_once_into_instance(env):
    first = create_app().config["SECRET_KEY"]
    key_file = env / "instance" / "secret_key"
    assert key_file.read_text().strip() == first and len(first) >= 32
    assert oct(os.stat(key_file).st_mode & 0o777) == "0o600"
    assert create_app().config["SECRET_KEY"] == first  # kept across restarts


def test_a_given_secret_key_wins(env, monkeypatch):
    monkeypatch.setenv("WEREWOLF_SECRET_KEY", "from-the-environment")
    assert create_app().config["SECRET_KEY"] == "from-the-environment"
    assert not (env / "instance" / "secret_key").exists()


def test_time_scale_must_be_positive(env, monkeypatch):
    monkeypatch.setenv("WEREWOLF_TIME_SCALE", "0")
    with pytest.raises(ValueError):
        create_app()
