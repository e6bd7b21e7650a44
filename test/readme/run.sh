#!/usr/bin/env bash
# README check: runs the README's runnable blocks (each a ```bash block right after a line
# `<!-- ci: run -->`) in order, in one bash shell, as a newcomer would paste them, then checks what
# they produced. The shell starts in a scratch directory that links every top-level entry of the
# checkout except dot-files, data, dist and node_modules' own build output, so `npm start` builds
# and serves from there with a fresh ./data and writes nothing into the checkout. Only two things
# differ from the README: the server gets a free port (PORT, and every "localhost:8000" in the
# blocks names it) and HOST=127.0.0.1; the environment is otherwise empty but for PATH.
#
# Needs node_modules (npm install), curl, jq and openssl. Exits 0 when every block and check passed.
# Environment: README_RESULTS=<file> (write {"passed": n, "failed": n}), README_LOG=<file> (keep the
# shell's output, the server's log lines included), README_TIMEOUT_SECONDS (default 300).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
for tool in curl jq openssl; do
  command -v "$tool" >/dev/null 2>&1 || { echo "readme: $tool is not installed (the README's blocks use it)" >&2; exit 1; }
done
[ -d "$repo/node_modules" ] || { echo "readme: $repo/node_modules is missing (npm install)" >&2; exit 1; }

scratch=$(mktemp -d)
log="${README_LOG:-$scratch/readme.log}"
shell_pid=""
cleanup() {
  local status=$?
  # The README's shell leads its own process group: the server it started in the background goes with it.
  if [ -n "$shell_pid" ]; then
    kill -TERM -- "-$shell_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 -- "-$shell_pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$shell_pid" 2>/dev/null || true
  fi
  rm -rf "$scratch"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
checkout="$scratch/checkout"
mkdir -p "$checkout" "$scratch/home" "$scratch/config"
for entry in "$repo"/*; do
  case "$(basename "$entry")" in data | dist | coverage) continue ;; esac
  ln -s "$entry" "$checkout/$(basename "$entry")"
done

# The runnable blocks, numbered; the script records each block it finishes.
progress="$scratch/progress"
results="$scratch/checks"
: >"$progress"
: >"$results"
script="$scratch/readme.sh"
block_count=$(PORT_NUMBER="$port" PROGRESS="$progress" node - "$repo/README.md" "$script" <<'NODE'
const fs = require('fs');
const [readme, out] = process.argv.slice(2);
const lines = fs.readFileSync(readme, 'utf8').split('\n');
const blocks = [];
for (let i = 0; i < lines.length; i++) {
  if (lines[i].trim() !== '<!-- ci: run -->') continue;
  if (lines[i + 1] !== '```bash') throw new Error(`README.md:${i + 1}: <!-- ci: run --> must be followed by a \`\`\`bash block`);
  const end = lines.indexOf('```', i + 2);
  if (end < 0) throw new Error(`README.md:${i + 2}: unterminated block`);
  blocks.push({ line: i + 3, text: lines.slice(i + 2, end).join('\n').replaceAll('localhost:8000', `localhost:${process.env.PORT_NUMBER}`) });
}
if (blocks.length === 0) throw new Error('README.md has no <!-- ci: run --> block');
const body = blocks.map((block, n) => `# README.md line ${block.line}\necho "readme: block ${n + 1} (README.md line ${block.line})"\n${block.text}\necho ${n + 1} >> ${JSON.stringify(process.env.PROGRESS)}`);
fs.writeFileSync(out, ['set -euo pipefail', ...body, ''].join('\n\n'));
console.log(blocks.length);
NODE
)

# What the blocks must have produced, run in the same shell (their variables are set) after the last block.
cat >>"$script" <<CHECKS
set +e
check() { local name=\$1; shift; if "\$@" >/dev/null 2>&1; then echo "pass \$name" >> "$results"; else echo "fail \$name" >> "$results"; fi; }
check "the signed CSR's certificate verifies against the exported chain" openssl verify -CAfile chain.pem api.pem
check "the exported key is the certificate's key" bash -c 'diff <(openssl pkey -in key.pem -pubout) <(openssl x509 -in chain.pem -noout -pubkey)'
check "the exported key file is mode 0600" bash -c '[ "\$(stat -c %a key.pem)" = 600 ]'
check "the revoked certificate reads as revoked" bash -c '[ "\$(pki cert show "\$0" -o json | jq -r .status)" = revoked ]' "\$CERT"
check "the first user is a superuser" bash -c '[ "\$(pki user me -o json | jq -r .role)" = superuser ]'
CHECKS

echo "readme: running $block_count README block(s) in $checkout against http://localhost:$port"
started=$(date +%s)
(cd "$checkout" && exec setsid env -i PATH="$PATH" HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config" \
  PORT="$port" HOST=127.0.0.1 bash "$script") >"$log" 2>&1 &
shell_pid=$!
( sleep "${README_TIMEOUT_SECONDS:-300}"; kill -TERM -- "-$shell_pid" 2>/dev/null ) &
watchdog=$!
shell_status=0
wait "$shell_pid" || shell_status=$?
kill "$watchdog" 2>/dev/null || true

# The server's ready line: where it is, and how to create the first user while there is none.
if grep -q "server listening on http://127.0.0.1:$port, API docs at http://127.0.0.1:$port/docs; no users yet" "$log"; then
  echo "pass the server's ready line names its URL, its docs and the first-user step" >>"$results"
else
  echo "fail the server's ready line names its URL, its docs and the first-user step" >>"$results"
fi

finished=$(wc -l <"$progress")
passed=$(grep -c '^pass' "$results" || true)
failed=$(grep -c '^fail' "$results" || true)
passed=$((passed + finished))
failed=$((failed + block_count - finished))
sed 's/^/readme: /' "$results"
if [ "$finished" -lt "$block_count" ]; then
  echo "readme: block $((finished + 1)) of $block_count failed (exit $shell_status); the shell's last lines:" >&2
  tail -n 40 "$log" >&2
fi
echo "readme: $passed passed, $failed failed in $(($(date +%s) - started)) s"
[ -z "${README_RESULTS:-}" ] || printf '{"passed": %d, "failed": %d}\n' "$passed" "$failed" >"$README_RESULTS"
[ "$failed" = 0 ]
