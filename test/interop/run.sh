#!/usr/bin/env bash
# Interop check: a real NetBox client (Debian's python3-pynetbox) against the built server.
#
# Requires dist/src/main.js (build first: npx nest build) and pynetbox importable by $PYTHON (default:
# the first of python3, /usr/bin/python3 that can import it; Debian installs it for /usr/bin/python3).
# With TEST_DATABASE_URL (a PostgreSQL server URL whose user may CREATE DATABASE) the server gets a
# fresh database interop_<random> there, dropped at exit; without it, the embedded database in a
# temporary DATA_DIR. Then: wait for /health, bootstrap a superuser, provision a platform API token,
# run test/interop/pynetbox_check.py, stop the server with SIGTERM. Exits with the check's status
# (or 1 when the harness itself fails).
#
# Environment: TEST_DATABASE_URL (optional), PYTHON (optional), INTEROP_KEEP_GOING=1 (report every
# failing check instead of stopping at the first), INTEROP_SERVER_LOG=<file> (keep the server's log).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
main_js="$repo/dist/src/main.js"
[ -f "$main_js" ] || { echo "interop: $main_js is missing; build first (npx nest build)" >&2; exit 1; }

find_python() {
  local candidate
  for candidate in ${PYTHON:-python3 /usr/bin/python3}; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import pynetbox' >/dev/null 2>&1; then
      echo "$candidate"
      return
    fi
  done
  echo "interop: no Python that can import pynetbox (${PYTHON:-python3, /usr/bin/python3}); install it: apt-get install -y python3-pynetbox" >&2
  exit 1
}
python=$(find_python)

workdir=$(mktemp -d)
server_log="${INTEROP_SERVER_LOG:-$workdir/server.log}"
server_pid=""
database_name=""
admin_url=""

cleanup() {
  local status=$?
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [ -n "$database_name" ]; then
    psql "$admin_url" -qAt -v ON_ERROR_STOP=1 -c "DROP DATABASE IF EXISTS \"$database_name\" WITH (FORCE)" >/dev/null 2>&1 ||
      psql "$admin_url" -qAt -c "DROP DATABASE IF EXISTS \"$database_name\"" >/dev/null 2>&1 ||
      echo "interop: could not drop database $database_name" >&2
  fi
  rm -rf "$workdir"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
  echo "interop: $*" >&2
  if [ -s "$server_log" ]; then
    echo "interop: last lines of the server log:" >&2
    tail -n 30 "$server_log" >&2
  fi
  exit 1
}

free_port() {
  node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# The server's environment: nothing inherited that could change what it connects to or reads.
server_env=(
  env -u DATABASE_URL -u DATA_DIR -u MIGRATE_ON_START -u API_V1_STR -u TRUST_PROXY
  NODE_ENV=test
  HOST=127.0.0.1
  LOG_LEVEL="${INTEROP_LOG_LEVEL:-warn}"
  JOB_POLL_INTERVAL_MS=0
  SECRET_KEY="interop-secret-key-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  PRIVATE_KEY_ENCRYPTION_KEY="$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')"
)

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  command -v psql >/dev/null 2>&1 || fail "TEST_DATABASE_URL is set but psql is not installed"
  admin_url="$TEST_DATABASE_URL"
  database_name="interop_$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
  psql "$admin_url" -qAt -v ON_ERROR_STOP=1 -c "CREATE DATABASE \"$database_name\"" >/dev/null ||
    { database_name=""; fail "could not create a database on TEST_DATABASE_URL"; }
  # Same server and credentials, the new database (the path component is the last "/…" before any "?").
  database_url=$(DATABASE="$database_name" node -e '
    const url = new URL(process.argv[1]);
    url.pathname = "/" + process.env.DATABASE;
    console.log(url.toString());
  ' "$admin_url")
  server_env+=(DATABASE_URL="$database_url")
  database_label="PostgreSQL server, database $database_name"
else
  server_env+=(DATA_DIR="$workdir/data")
  database_label="embedded database in $workdir/data"
fi

port=$(free_port)
base="http://127.0.0.1:$port"
echo "interop: starting $main_js on $base ($database_label)"
# The working directory is the temporary one, so a developer's .env in the repository is not read.
(cd "$workdir" && exec "${server_env[@]}" PORT="$port" node "$main_js") >"$server_log" 2>&1 &
server_pid=$!

healthy=""
for _ in $(seq 1 300); do
  kill -0 "$server_pid" 2>/dev/null || fail "the server exited during start"
  if [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/health" 2>/dev/null)" = 200 ]; then
    healthy=1
    break
  fi
  sleep 0.2
done
[ -n "$healthy" ] || fail "the server did not become healthy within 60 s"

# The first user may be created without credentials and may be a superuser (identity API).
username=interop-admin
password="interop-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
bootstrap=$(curl -s -w '\n%{http_code}' -X POST "$base/api/v1/users/" -H 'Content-Type: application/json' \
  -d "{\"username\":\"$username\",\"email\":\"$username@example.com\",\"password\":\"$password\",\"role\":\"superuser\"}")
[ "$(tail -n 1 <<<"$bootstrap")" = 201 ] || fail "bootstrapping the superuser answered: $bootstrap"

provisioned=$(curl -s -w '\n%{http_code}' -X POST "$base/api/users/tokens/provision/" -H 'Content-Type: application/json' \
  -d "{\"username\":\"$username\",\"password\":\"$password\"}")
[ "$(tail -n 1 <<<"$provisioned")" = 201 ] || fail "provisioning a platform token answered: $provisioned"
token=$(head -n -1 <<<"$provisioned" | node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>console.log(JSON.parse(s).key))')
[ -n "$token" ] && [ "$token" != undefined ] || fail "the provisioned token has no key: $provisioned"

echo "interop: running pynetbox $("$python" -c 'import pynetbox; print(pynetbox.__version__)') ($python)"
check_status=0
PLATFORM_URL="$base" PLATFORM_TOKEN="$token" PLATFORM_USERNAME="$username" PLATFORM_PASSWORD="$password" \
  "$python" "$repo/test/interop/pynetbox_check.py" || check_status=$?

kill -TERM "$server_pid"
stop_status=0
wait "$server_pid" || stop_status=$?
server_pid=""
if [ "$check_status" != 0 ] && grep -qE '"level":"(error|fatal)"' "$server_log" 2>/dev/null; then
  echo "interop: errors in the server log:" >&2
  grep -E '"level":"(error|fatal)"' "$server_log" | tail -n 20 >&2
fi
[ "$stop_status" = 0 ] || { echo "interop: the server exited $stop_status after SIGTERM" >&2; [ "$check_status" != 0 ] || check_status=1; }
exit "$check_status"
