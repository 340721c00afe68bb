# Shared by scripts/serve and scripts/test: a .venv with the project installed.
# Reinstalls only when pyproject.toml changed since the last install.

ensure_venv() {
  local extras="$1" spec="." stamp python
  [ -n "$extras" ] && spec=".[$extras]"
  if [ ! -x .venv/bin/python ]; then
    python="$(command -v python3.11 || command -v python3)"
    "$python" -m venv .venv
  fi
  stamp=".venv/.installed-${extras:-base}"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$(sha256sum pyproject.toml)" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e "$spec"
    sha256sum pyproject.toml > "$stamp"
  fi
}
