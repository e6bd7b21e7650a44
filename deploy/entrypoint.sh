#!/bin/sh
# One image, three processes: the first argument selects which (default: the API server).
# exec: node becomes PID 1 and receives SIGTERM itself, for a graceful shutdown.
set -e
command="${1:-server}"
[ "$#" -gt 0 ] && shift
case "$command" in
  server) exec node dist/src/main.js "$@" ;;
  mail-worker) exec node dist/src/integrations/mail/main.js "$@" ;;
  migrate) exec node dist/src/bin/migrate.js run "$@" ;;
  *) exec "$command" "$@" ;;
esac
