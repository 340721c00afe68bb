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
    # The "fast" extra is compiled from source (no Linux wheel): without gcc or Python's
    # headers it fails, and the same install goes on without it.
    if ! .venv/bin/python -m pip install --quiet -e ".[${extras:+$extras,}fast]" 2> .venv/fast-extra.log; then
      echo "note: gunicorn_h1c (gunicorn's C HTTP parser) could not be built, see .venv/fast-extra.log;" \
        "gunicorn parses HTTP in Python instead (install gcc and python3-dev to have it)" >&2
      .venv/bin/python -m pip install --quiet -e "$spec"
    fi
    sha256sum pyproject.toml > "$stamp"
  fi
}

# pytest with its arguments; "collected no tests" (exit code 5) is a failure, never a pass.
run_pytest() {
  local status=0
  .venv/bin/python -m pytest "$@" || status=$?
  if [ "$status" -eq 5 ]; then
    echo "error: pytest collected no tests ($*)" >&2
    return 1
  fi
  return "$status"
}

# A throw-away PostgreSQL cluster for the tests: initdb in a temporary folder, a free
# local port, no system service. PostgreSQL refuses to run as root, so as root the
# cluster belongs to the `postgres` user (created by Debian's package, installed here
# when missing). Sets WEREWOLF_TEST_DATABASE_URI; stop_test_postgres removes it all.
# Returns 2 when PostgreSQL is not available (and cannot be installed).
PG_TMP=""
PG_RUN=()

postgres_bin_dir() {
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  if [ -z "$dir" ] && command -v pg_config > /dev/null; then dir="$(pg_config --bindir)"; fi
  [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && echo "$dir"
}

start_test_postgres() {
  local bin port
  bin="$(postgres_bin_dir)" || bin=""
  if [ -z "$bin" ] && [ "$(id -u)" = 0 ]; then
    echo "installing Debian's postgresql for the PostgreSQL test runs" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql > /dev/null; } \
      || echo "warning: could not install postgresql" >&2
    bin="$(postgres_bin_dir)" || bin=""
  fi
  [ -n "$bin" ] || return 2
  PG_TMP="$(mktemp -d /tmp/werewolf-pg.XXXXXX)"
  PG_RUN=()
  if [ "$(id -u)" = 0 ]; then
    id postgres > /dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    chown postgres "$PG_TMP"
    PG_RUN=(runuser -u postgres --)
  fi
  port="$(.venv/bin/python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  # fsync off and no durable commits: a test cluster that disappears at the end anyway.
  "${PG_RUN[@]}" "$bin/initdb" --pgdata "$PG_TMP/data" --username postgres --auth trust \
      --encoding UTF8 --no-locale --no-sync > "$PG_TMP/initdb.log" 2>&1 \
    && "${PG_RUN[@]}" "$bin/pg_ctl" --pgdata "$PG_TMP/data" --log "$PG_TMP/server.log" --wait \
      --options "-p $port -c listen_addresses=127.0.0.1 -k $PG_TMP -c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start > /dev/null \
    && "${PG_RUN[@]}" "$bin/createdb" --host 127.0.0.1 --port "$port" --username postgres werewolf_test \
    || { cat "$PG_TMP"/*.log >&2; return 1; }
  PG_BIN="$bin"
  export WEREWOLF_TEST_DATABASE_URI="postgresql+psycopg://postgres@127.0.0.1:$port/werewolf_test"
}

stop_test_postgres() {
  if [ -n "$PG_TMP" ]; then
    [ -f "$PG_TMP/data/postmaster.pid" ] \
      && "${PG_RUN[@]}" "$PG_BIN/pg_ctl" --pgdata "$PG_TMP/data" --mode immediate stop > /dev/null 2>&1
    rm -rf "$PG_TMP"
    PG_TMP=""
  fi
  unset WEREWOLF_TEST_DATABASE_URI
}

# run_pytest on a throw-away PostgreSQL cluster. Without PostgreSQL (and not root):
# skipped with one line, unless CI is set, which makes it a failure.
run_pytest_on_postgres() {
  local status=0
  start_test_postgres || status=$?
  if [ "$status" -eq 2 ]; then
    if [ -n "${CI:-}" ]; then
      echo "error: PostgreSQL is not available and CI is set: the PostgreSQL test runs cannot be skipped" >&2
      return 1
    fi
    echo "PostgreSQL test runs skipped: PostgreSQL is not installed (install Debian's postgresql, or run as root)" >&2
    return 0
  fi
  if [ "$status" -ne 0 ]; then
    stop_test_postgres
    echo "error: could not start a PostgreSQL cluster for the tests" >&2
    return 1
  fi
  echo "PostgreSQL test runs: $WEREWOLF_TEST_DATABASE_URI ($*)" >&2
  run_pytest "$@" || status=$?
  stop_test_postgres
  return "$status"
}

# A CPU cgroup of the lowest weight for the tests that run beside the browser tests: what
# it starts (pytest, its workers, their gunicorns, PostgreSQL) gets only the CPU time the
# browser tests leave, so a phone never waits for the processor behind them. It holds even
# for processes that start a session of their own (nice would not: each session is its own
# autogroup). Root only (cgroup v1 `cpu` or v2 with the cpu controller); prints the folder,
# or returns 1 when none can be made (then the caller runs everything in turn).
make_low_cpu_cgroup() {
  local group
  if [ "$(id -u)" != 0 ]; then return 1; fi
  if [ -w /sys/fs/cgroup/cpu ] && [ -f /sys/fs/cgroup/cpu/cpu.shares ]; then        # v1
    group="/sys/fs/cgroup/cpu/werewolf-tests-$$"
    mkdir -p "$group" 2>/dev/null && echo 2 > "$group/cpu.shares" 2>/dev/null \
      || { rmdir "$group" 2>/dev/null; return 1; }
  elif [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw cpu /sys/fs/cgroup/cgroup.controllers; then  # v2
    group="/sys/fs/cgroup/werewolf-tests-$$"
    { grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control || echo +cpu > /sys/fs/cgroup/cgroup.subtree_control; } 2>/dev/null \
      && mkdir -p "$group" 2>/dev/null && echo 1 > "$group/cpu.weight" 2>/dev/null \
      || { rmdir "$group" 2>/dev/null; return 1; }
  else
    return 1
  fi
  echo "$group"
}
