#!/usr/bin/env bash
# What the bench scripts need besides npm, from Debian when missing: openssl, psql, curl and any
# COMMAND:PACKAGE pairs given, and a PostgreSQL server on 127.0.0.1:5432 (started as .ci/run does,
# with the superuser password "postgres") unless DATABASE_URL or BENCH_PG_ADMIN_URL is set.
#
#   bash bench/prerequisites.sh [COMMAND:PACKAGE ...]      e.g. cfssl:golang-cfssl hey:hey
set -euo pipefail

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_install() {
  echo "bench: installing $* from Debian" >&2
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get install -y -qq "$@" >/dev/null 2>&1 ||
    { as_root apt-get update -qq >/dev/null && as_root apt-get install -y -qq "$@" >/dev/null; }
}

missing=()
for pair in openssl:openssl psql:postgresql-client curl:curl "$@"; do
  command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
done
[ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"

postgres_answers() { (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; }

if [ -z "${DATABASE_URL:-}${BENCH_PG_ADMIN_URL:-}" ] && ! postgres_answers; then
  [ -n "$(ls /etc/postgresql 2>/dev/null)" ] && command -v pg_ctlcluster >/dev/null || apt_install postgresql
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  echo "bench: starting PostgreSQL $version" >&2
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>/dev/null || as_root pg_ctlcluster "$version" main start
  for _ in $(seq 1 60); do
    postgres_answers && break
    sleep 0.5
  done
  postgres_answers || { echo "bench: PostgreSQL did not start" >&2; exit 1; }
  as_root su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD 'postgres'\""
fi
