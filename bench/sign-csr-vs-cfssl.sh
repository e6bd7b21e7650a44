#!/usr/bin/env bash
# sign-csr of the built server (dist/) against two `cfssl serve` peers on the same machine, same CSR,
# same load: cfssl without a database, and cfssl with its certificate database (-db-config) on the
# same PostgreSQL server, which persists every certificate it signs as we do.
#
#   npm run build && bash bench/sign-csr-vs-cfssl.sh      (or: npm run bench:cfssl)
#   BENCH_ROUNDS=5 BENCH_SECONDS=10 BENCH_CONNECTIONS=16 bash bench/sign-csr-vs-cfssl.sh
#   DATABASE_URL=postgres://user@host/db bash bench/sign-csr-vs-cfssl.sh   (a database used as is)
#
# Without DATABASE_URL it creates a fresh database on BENCH_PG_ADMIN_URL (default
# postgres://postgres:postgres@127.0.0.1:5432/postgres) and drops it at the end.
#
# Both sides sign the same openssl RSA-2048 CSR with an RSA-2048 CA: cfssl's made with openssl, ours
# created through POST /api/v1/cas/. Each round runs the three sides one after another (which goes first
# rotates), each BENCH_SECONDS of `hey` at BENCH_CONNECTIONS connections. hey lets in-flight requests finish
# when the time is up, so every request it sent is counted with its status or error, and afterwards the
# certificates and cert_create audit rows in our database, and the certificates in cfssl's, must have grown
# by exactly the number of 2xx answers. cfssl's database (a second database on the same server: its
# tables would collide with ours) has the schema of cfssl's certdb PostgreSQL migration for the
# version Debian ships: `certificates` and `ocsp_responses`.
# bench/prerequisites.sh installs what is missing from Debian (golang-cfssl, hey, openssl, psql, curl)
# and starts a local PostgreSQL server when none answers.
set -euo pipefail

ROUNDS=${BENCH_ROUNDS:-5}
ROUND_SECONDS=${BENCH_SECONDS:-10}
CONNECTIONS=${BENCH_CONNECTIONS:-16}
WARMUP_SECONDS=${BENCH_WARMUP_SECONDS:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-cfssl.XXXXXX")
SERVER_PID=
CFSSL_PID=
DROP_DATABASE=
CFSSL_DB_PID=
CFSSL_DATABASE=

log() { printf '%s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

cleanup() {
  local status=$?
  set +e
  [ -n "$SERVER_PID" ] && kill -TERM "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  [ -n "$CFSSL_PID" ] && kill -TERM "$CFSSL_PID" 2>/dev/null && wait "$CFSSL_PID" 2>/dev/null
  [ -n "$CFSSL_DB_PID" ] && kill -TERM "$CFSSL_DB_PID" 2>/dev/null && wait "$CFSSL_DB_PID" 2>/dev/null
  [ -n "$CFSSL_DATABASE" ] && psql -q "$ADMIN_URL" -c "DROP DATABASE IF EXISTS \"$CFSSL_DATABASE\" WITH (FORCE)" >/dev/null 2>&1
  [ -n "$DROP_DATABASE" ] && psql -q "$ADMIN_URL" -c "DROP DATABASE IF EXISTS \"$DROP_DATABASE\" WITH (FORCE)" >/dev/null 2>&1
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# json_get FIELD: prints a top-level field of the JSON document on stdin.
json_get() {
  node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>{const v=JSON.parse(s)[process.argv[1]];if(v===undefined){console.error(s);process.exit(1)}console.log(v)})' "$1"
}

# wait_answering URL PID [STATUS]: until URL answers (with STATUS when given).
wait_answering() {
  local code
  for _ in $(seq 1 600); do
    kill -0 "$2" 2>/dev/null || die "process $2 exited before $1 answered"
    code=$(curl -s -o /dev/null -w '%{http_code}' "$1" || true)
    if [ -n "${3:-}" ]; then [ "$code" = "$3" ] && return; else [ "$code" != 000 ] && return; fi
    sleep 0.1
  done
  die "$1 did not answer within 60 s"
}

# load NAME URL BODY_FILE SECONDS [HEADER]: runs hey, prints "ok bad req_per_s p50_ms p99_ms".
# From hey's summary, not its CSV: the CSV leaves out requests that got no answer (resets, timeouts).
load() {
  local url=$2 body=$3 seconds=$4 header=${5:-} out="$WORK/$1.txt"
  local args=(-z "${seconds}s" -c "$CONNECTIONS" -m POST -T application/json -D "$body")
  [ -n "$header" ] && args+=(-H "$header")
  hey "${args[@]}" "$url" >"$out"
  awk '
    /^ *Total:/ { total = $2 }
    /^ *Slowest:/ { slowest = $2 * 1000 }
    /^Status code distribution:/ { section = "status"; next }
    /^Error distribution:/ { section = "error"; next }
    /^ *[0-9]+% in / { latency[$1] = $3 * 1000 }
    section != "" && /^ *\[[0-9]+\]/ {
      count = (section == "status") ? $2 : substr($1, 2, length($1) - 2)
      code = substr($1, 2, length($1) - 2) + 0
      if (section == "status" && code >= 200 && code < 300) ok += count; else bad += count
    }
    # hey prints no 99% line below 100 answers: the slowest stands in.
    END { printf "%d %d %.1f %.1f %.1f\n", ok, bad, (total > 0 ? ok / total : 0), latency["50%"], ("99%" in latency ? latency["99%"] : slowest) }' "$out"
}

# median FORMAT: the median of the numbers on stdin, printed with FORMAT.
median() { sort -g | awk -v f="$1\n" '{ v[NR] = $1 } END { printf f, NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

bash "$ROOT/bench/prerequisites.sh" cfssl:golang-cfssl hey:hey
[ -f "$ROOT/dist/src/main.js" ] || die "dist/src/main.js is missing: run npm run build first"

ADMIN_URL=${BENCH_PG_ADMIN_URL:-postgres://postgres:postgres@127.0.0.1:5432/postgres}
if [ -z "${DATABASE_URL:-}" ]; then
  DROP_DATABASE="pki_bench_$$_$(date +%s)"
  psql -q "$ADMIN_URL" -c "CREATE DATABASE \"$DROP_DATABASE\"" >/dev/null || die "cannot create a database on $ADMIN_URL"
  DATABASE_URL="${ADMIN_URL%/*}/$DROP_DATABASE"
fi
sql() { psql -qAtX "$DATABASE_URL" -c "$1"; }

# One CSR for both sides.
openssl req -new -newkey rsa:2048 -nodes -keyout "$WORK/leaf.key" -out "$WORK/leaf.csr" \
  -subj "/CN=bench.example.com" -addext "subjectAltName=DNS:bench.example.com" 2>/dev/null

# cfssl: RSA-2048 CA made with openssl, a server profile like ours.
openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -keyout "$WORK/cfssl-ca.key" -out "$WORK/cfssl-ca.pem" \
  -subj "/CN=Bench cfssl Root" -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
cat >"$WORK/cfssl-config.json" <<'EOF'
{"signing": {"default": {"expiry": "8760h", "usages": ["digital signature", "key encipherment", "server auth"]}}}
EOF
CFSSL_PORT=$(free_port)
cfssl serve -address 127.0.0.1 -port "$CFSSL_PORT" -ca "$WORK/cfssl-ca.pem" -ca-key "$WORK/cfssl-ca.key" \
  -config "$WORK/cfssl-config.json" -loglevel 2 >"$WORK/cfssl.log" 2>&1 &
CFSSL_PID=$!
CFSSL_URL="http://127.0.0.1:$CFSSL_PORT/api/v1/cfssl/sign"

# cfssl with its certificate database: the same CA and profile, certificates stored in PostgreSQL.
CFSSL_DATABASE="cfssl_bench_$$_$(date +%s)"
psql -q "$ADMIN_URL" -c "CREATE DATABASE \"$CFSSL_DATABASE\"" >/dev/null || die "cannot create cfssl's database on $ADMIN_URL"
CFSSL_DATABASE_URL="${ADMIN_URL%/*}/$CFSSL_DATABASE"
psql -qX "$CFSSL_DATABASE_URL" >/dev/null <<'SQL'
CREATE TABLE certificates (
  serial_number bytea NOT NULL,
  authority_key_identifier bytea NOT NULL,
  ca_label bytea,
  status bytea NOT NULL,
  reason int,
  expiry timestamptz,
  revoked_at timestamptz,
  pem bytea NOT NULL,
  PRIMARY KEY (serial_number, authority_key_identifier)
);
CREATE TABLE ocsp_responses (
  serial_number bytea NOT NULL,
  authority_key_identifier bytea NOT NULL,
  body bytea NOT NULL,
  expiry timestamptz,
  PRIMARY KEY (serial_number, authority_key_identifier),
  FOREIGN KEY (serial_number, authority_key_identifier) REFERENCES certificates (serial_number, authority_key_identifier)
);
SQL
printf '{"driver": "postgres", "data_source": "%s?sslmode=disable"}\n' "$CFSSL_DATABASE_URL" >"$WORK/cfssl-db.json"
CFSSL_DB_PORT=$(free_port)
cfssl serve -address 127.0.0.1 -port "$CFSSL_DB_PORT" -ca "$WORK/cfssl-ca.pem" -ca-key "$WORK/cfssl-ca.key" \
  -config "$WORK/cfssl-config.json" -db-config "$WORK/cfssl-db.json" -loglevel 2 >"$WORK/cfssl-db.log" 2>&1 &
CFSSL_DB_PID=$!
CFSSL_DB_URL="http://127.0.0.1:$CFSSL_DB_PORT/api/v1/cfssl/sign"

# Ours: the built server on PostgreSQL, same environment as bench/bench-server.js.
PORT=$(free_port)
BASE="http://127.0.0.1:$PORT"
env -i PATH="$PATH" HOME="${HOME:-/root}" NODE_ENV=production PORT="$PORT" HOST=127.0.0.1 DATA_DIR="$WORK/data" \
  DATABASE_URL="$DATABASE_URL" SECRET_KEY=bench-secret-key-bench-secret-key-123456 \
  PRIVATE_KEY_ENCRYPTION_KEY="$(node -p 'Buffer.alloc(32, 9).toString("base64")')" \
  AUTH_RATE_LIMIT=1000/second AUTH_ADDRESS_RATE_LIMIT=1000/second ACCESS_TOKEN_EXPIRE_MINUTES=600 LOG_LEVEL=warn \
  node "$ROOT/dist/src/main.js" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
wait_answering "$BASE/health" "$SERVER_PID" 200
wait_answering "$CFSSL_URL" "$CFSSL_PID"
wait_answering "$CFSSL_DB_URL" "$CFSSL_DB_PID"

USERNAME="bench$(date +%s)"
PASSWORD=bench-password-123
curl -sf -o /dev/null -X POST "$BASE/api/v1/users/" -H 'content-type: application/json' \
  -d "{\"username\":\"$USERNAME\",\"email\":\"$USERNAME@example.com\",\"password\":\"$PASSWORD\",\"role\":\"superuser\"}" ||
  die "could not create the bench user (the database must be empty, or allow registration)"
TOKEN=$(curl -sf -X POST "$BASE/api/v1/auth/token" --data-urlencode "username=$USERNAME" --data-urlencode "password=$PASSWORD" | json_get access_token)
AUTH="Authorization: Bearer $TOKEN"
CA_JSON=$(curl -sf -X POST "$BASE/api/v1/cas/" -H "$AUTH" -H 'content-type: application/json' \
  -d "{\"name\":\"Bench RSA $USERNAME\",\"subject_dn\":\"CN=Bench RSA Root\",\"key_type\":\"rsa\",\"key_size\":2048}")
CA_ID=$(json_get id <<<"$CA_JSON")
CA_SLUG=$(json_get slug <<<"$CA_JSON")

node -e 'const fs=require("fs");const csr=fs.readFileSync(process.argv[1],"utf8");
  fs.writeFileSync(process.argv[2],JSON.stringify({certificate_request:csr}));
  fs.writeFileSync(process.argv[3],JSON.stringify({csr,ca_id:Number(process.argv[4]),certificate_type:"server"}))' \
  "$WORK/leaf.csr" "$WORK/cfssl-body.json" "$WORK/ours-body.json" "$CA_ID"
OURS_URL="$BASE/api/v1/certificates/sign-csr"

# Both answers must be certificates that chain to their CA.
curl -sf -X POST "$CFSSL_URL" -H 'content-type: application/json' --data-binary @"$WORK/cfssl-body.json" |
  node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>process.stdout.write(JSON.parse(s).result.certificate))' >"$WORK/cfssl-leaf.pem"
curl -sf -X POST "$OURS_URL" -H "$AUTH" -H 'content-type: application/json' --data-binary @"$WORK/ours-body.json" |
  json_get certificate >"$WORK/ours-leaf.pem"
curl -sf "$BASE/ca/$CA_SLUG.pem" >"$WORK/ours-ca.pem"
openssl verify -CAfile "$WORK/cfssl-ca.pem" "$WORK/cfssl-leaf.pem" >/dev/null || die "cfssl's certificate does not verify"
curl -sf -X POST "$CFSSL_DB_URL" -H 'content-type: application/json' --data-binary @"$WORK/cfssl-body.json" |
  node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>process.stdout.write(JSON.parse(s).result.certificate))' >"$WORK/cfssl-db-leaf.pem"
openssl verify -CAfile "$WORK/cfssl-ca.pem" "$WORK/cfssl-db-leaf.pem" >/dev/null || die "the certificate of cfssl with its database does not verify"
[ "$(psql -qAtX "$CFSSL_DATABASE_URL" -c 'SELECT count(*) FROM certificates')" -eq 1 ] || die "cfssl did not store its certificate in its database"
openssl verify -CAfile "$WORK/ours-ca.pem" "$WORK/ours-leaf.pem" >/dev/null || die "our certificate does not verify"

log "warm-up: ${WARMUP_SECONDS} s each"
load warm-ours "$OURS_URL" "$WORK/ours-body.json" "$WARMUP_SECONDS" "$AUTH" >/dev/null
load warm-cfssl "$CFSSL_URL" "$WORK/cfssl-body.json" "$WARMUP_SECONDS" >/dev/null
load warm-cfssl-db "$CFSSL_DB_URL" "$WORK/cfssl-body.json" "$WARMUP_SECONDS" >/dev/null

CERTS_SQL="SELECT count(*) FROM certificates WHERE issuer_id = $CA_ID"
AUDIT_SQL="SELECT count(*) FROM audit_logs WHERE action = 'cert_create' AND resource_type = 'certificate'
  AND resource_id IN (SELECT id FROM certificates WHERE issuer_id = $CA_ID)"
CFSSL_CERTS_SQL="SELECT count(*) FROM certificates"
cfssl_sql() { psql -qAtX "$CFSSL_DATABASE_URL" -c "$1"; }
CERTS_BEFORE=$(sql "$CERTS_SQL")
AUDIT_BEFORE=$(sql "$AUDIT_SQL")
CFSSL_CERTS_BEFORE=$(cfssl_sql "$CFSSL_CERTS_SQL")

# side NAME: runs one side for the current round, prints "ok bad req_per_s p50_ms p99_ms".
side() {
  case "$1" in
  ours) load "ours-$round" "$OURS_URL" "$WORK/ours-body.json" "$ROUND_SECONDS" "$AUTH" ;;
  cfssl) load "cfssl-$round" "$CFSSL_URL" "$WORK/cfssl-body.json" "$ROUND_SECONDS" ;;
  cfssl-db) load "cfssl-db-$round" "$CFSSL_DB_URL" "$WORK/cfssl-body.json" "$ROUND_SECONDS" ;;
  esac
}

echo "sign-csr, RSA-2048 CA and CSR: ours (node dist/src/main.js, PostgreSQL) vs cfssl serve ($(dpkg-query -W -f '${Version}' golang-cfssl 2>/dev/null || echo '?')) without and with its PostgreSQL certificate database"
echo "$ROUNDS rounds x ${ROUND_SECONDS} s, $CONNECTIONS connections, hey; $(nproc) cores; node $(node -v); $(date -u +%Y-%m-%dT%H:%MZ)"
printf '%-6s %11s %9s %12s %9s %12s %9s %8s %8s %s\n' round 'ours req/s' 'ours p99' 'cfssl req/s' 'cfssl p99' 'cfssl+db r/s' 'p99' 'ours/cf' 'ours/db' 'non-2xx (ours/cfssl/db)'
OURS_OK_TOTAL=0
CFSSL_DB_OK_TOTAL=0
BAD_TOTAL=0
: >"$WORK/rounds"
SIDES=(ours cfssl cfssl-db)
for round in $(seq 1 "$ROUNDS"); do
  for turn in 0 1 2; do
    name=${SIDES[$(((round + turn) % 3))]}
    read -r ok bad rps _ p99 < <(side "$name")
    case "$name" in
    ours) o_ok=$ok o_bad=$bad o_rps=$rps o_p99=$p99 ;;
    cfssl) c_bad=$bad c_rps=$rps c_p99=$p99 ;;
    cfssl-db) d_ok=$ok d_bad=$bad d_rps=$rps d_p99=$p99 ;;
    esac
  done
  ratio=$(awk -v a="$o_rps" -v b="$c_rps" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
  ratio_db=$(awk -v a="$o_rps" -v b="$d_rps" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
  printf '%-6s %11s %6s ms %12s %6s ms %12s %6s ms %8s %8s %s\n' "$round" "$o_rps" "$o_p99" "$c_rps" "$c_p99" "$d_rps" "$d_p99" "$ratio" "$ratio_db" "$o_bad/$c_bad/$d_bad"
  echo "$o_rps $o_p99 $c_rps $c_p99 $ratio $d_rps $d_p99 $ratio_db" >>"$WORK/rounds"
  OURS_OK_TOTAL=$((OURS_OK_TOTAL + o_ok))
  CFSSL_DB_OK_TOTAL=$((CFSSL_DB_OK_TOTAL + d_ok))
  BAD_TOTAL=$((BAD_TOTAL + o_bad + c_bad + d_bad))
done

CERTS_GROWTH=$(($(sql "$CERTS_SQL") - CERTS_BEFORE))
AUDIT_GROWTH=$(($(sql "$AUDIT_SQL") - AUDIT_BEFORE))
CFSSL_CERTS_GROWTH=$(($(cfssl_sql "$CFSSL_CERTS_SQL") - CFSSL_CERTS_BEFORE))
median_of() { awk -v c="$1" '{ print $c }' "$WORK/rounds" | median "${2:-%.1f}"; }
echo "median: ours $(median_of 1) req/s (p99 $(median_of 2) ms), cfssl $(median_of 3) req/s (p99 $(median_of 4) ms), cfssl with its database $(median_of 6) req/s (p99 $(median_of 7) ms)"
echo "persisted: ours $CERTS_GROWTH certificates and $AUDIT_GROWTH cert_create audit rows for $OURS_OK_TOTAL successful sign-csr requests; cfssl $CFSSL_CERTS_GROWTH certificates for $CFSSL_DB_OK_TOTAL; $BAD_TOTAL non-2xx answers"
echo "median ratio ours/cfssl: $(median_of 5 %.2f) (target >= 0.6); ours/cfssl with its database: $(median_of 8 %.2f) (target >= 1.0); ours p99 target < 100 ms"
status=0
[ "$CERTS_GROWTH" -eq "$OURS_OK_TOTAL" ] && [ "$AUDIT_GROWTH" -eq "$OURS_OK_TOTAL" ] || { log "error: our database growth does not match the successful requests"; status=1; }
[ "$CFSSL_CERTS_GROWTH" -eq "$CFSSL_DB_OK_TOTAL" ] || { log "error: cfssl's database growth does not match its successful requests"; status=1; }
[ "$BAD_TOTAL" -eq 0 ] || { log "error: $BAD_TOTAL requests were not answered 2xx"; status=1; }
exit $status
