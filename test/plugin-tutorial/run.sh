#!/usr/bin/env bash
# Plugin tutorial check: runs the runnable blocks of docs/plugins/README.md (each a ```bash block
# right after a line `<!-- ci: run -->`) in order, in one bash shell, as a newcomer pastes them, in a
# scratch copy of the checkout (the files git tracks or would track, node_modules linked); they
# scaffold a plugin, generate and apply its migration and run its tests. Then it checks:
# - the blocks changed nothing outside the new plugin's folder but one added line of src/plugins/registry.ts;
# - PLUGINS naming the new plugin passes the configuration check, and its migrations are applied;
# - that folder, moved into a second fresh copy and registered there (`npm run plugin:new -- --existing`,
#   again one line), passes its tests: a plugin brought in from elsewhere carries everything it owns.
#
# The blocks run with the caller's environment minus DATABASE_URL, DATA_DIR and PLUGINS (so the
# migration commands use the copy's embedded database); TEST_DATABASE_URL, when set, is used by the
# tests as usual. Needs git and node_modules. Exits 0 when every block and check passed.
# Environment: PLUGIN_TUTORIAL_RESULTS=<file> (write {"passed": n, "failed": n}).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
tutorial="$repo/docs/plugins/README.md"
[ -d "$repo/node_modules" ] || { echo "plugin-tutorial: $repo/node_modules is missing (npm install)" >&2; exit 1; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
results="$scratch/checks"
: >"$results"
pass() { echo "pass $1" >>"$results"; }
fail() { echo "fail $1" >>"$results"; }

# A copy of the checkout as git sees it (deleted files left out), committed, so `git status` shows what changed.
copy_checkout() {
  local target=$1
  mkdir -p "$target"
  (cd "$repo" && git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
    if [ "$file" != node_modules ] && [ -e "$file" ]; then printf '%s\0' "$file"; fi
  done | tar --null -T - -cf -) | tar -xf - -C "$target"
  ln -s "$repo/node_modules" "$target/node_modules"
  git -C "$target" init -q
  echo /node_modules >>"$target/.git/info/exclude"
  git -C "$target" add -A
  git -C "$target" -c user.name=ci -c user.email=ci@localhost commit -qm checkout
}

# What changed in a copy outside src/plugins/<name>/: exactly one added line of the registry.
only_registered() {
  local copy=$1 name=$2
  local outside numstat
  outside=$(git -C "$copy" status --porcelain --untracked-files=all | grep -v "^?? src/plugins/$name/" || true)
  numstat=$(git -C "$copy" diff --numstat)
  if [ "$outside" = " M src/plugins/registry.ts" ] && [ "$numstat" = "$(printf '1\t0\tsrc/plugins/registry.ts')" ]; then
    return 0
  fi
  echo "plugin-tutorial: changed outside src/plugins/$name/:" >&2
  echo "$outside" >&2
  git -C "$copy" diff >&2
  return 1
}

first="$scratch/first"
copy_checkout "$first"

# The runnable blocks, numbered; the script records each block it finishes.
progress="$scratch/progress"
: >"$progress"
script="$scratch/tutorial.sh"
block_count=$(PROGRESS="$progress" node - "$tutorial" "$script" <<'NODE'
const fs = require('fs');
const [tutorial, out] = process.argv.slice(2);
const lines = fs.readFileSync(tutorial, 'utf8').split('\n');
const blocks = [];
for (let i = 0; i < lines.length; i++) {
  if (lines[i].trim() !== '<!-- ci: run -->') continue;
  if (lines[i + 1] !== '```bash') throw new Error(`${tutorial}:${i + 1}: <!-- ci: run --> must be followed by a \`\`\`bash block`);
  const end = lines.indexOf('```', i + 2);
  if (end < 0) throw new Error(`${tutorial}:${i + 2}: unterminated block`);
  blocks.push({ line: i + 3, text: lines.slice(i + 2, end).join('\n') });
}
if (blocks.length === 0) throw new Error(`${tutorial} has no <!-- ci: run --> block`);
const body = blocks.map((block, n) => `echo "plugin-tutorial: block ${n + 1} (docs/plugins/README.md line ${block.line})"\n${block.text}\necho ${n + 1} >> ${JSON.stringify(process.env.PROGRESS)}`);
fs.writeFileSync(out, ['set -euo pipefail', ...body, ''].join('\n\n'));
console.log(blocks.length);
NODE
)

started=$(date +%s)
echo "plugin-tutorial: running $block_count block(s) of docs/plugins/README.md in $first"
shell_status=0
(cd "$first" && env -u DATABASE_URL -u DATA_DIR -u PLUGINS bash "$script") || shell_status=$?
finished=$(wc -l <"$progress")
for n in $(seq 1 "$block_count"); do
  if [ "$n" -le "$finished" ]; then pass "tutorial block $n"; else fail "tutorial block $n"; fi
done
[ "$finished" = "$block_count" ] || echo "plugin-tutorial: block $((finished + 1)) of $block_count failed (exit $shell_status)" >&2

# The plugin the blocks made: the one new folder under src/plugins/.
name=$(git -C "$first" status --porcelain | sed -n 's#^?? src/plugins/\([a-z][a-z0-9]*\)/$#\1#p')
if [ -z "$name" ] || [ "$(echo "$name" | wc -l)" != 1 ]; then
  fail "the tutorial made one plugin folder"
elif only_registered "$first" "$name"; then
  pass "the tutorial changed nothing outside src/plugins/$name/ but one line of src/plugins/registry.ts"
else
  fail "the tutorial changed nothing outside src/plugins/$name/ but one line of src/plugins/registry.ts"
fi

if [ -n "$name" ] && [ "$finished" = "$block_count" ]; then
  # PLUGINS naming the new plugin alone passes the configuration check, and each of its migrations is applied.
  status=$(cd "$first" && env -u DATABASE_URL -u DATA_DIR PLUGINS="$name" node dist/src/bin/migrate.js show) || status=""
  migrations=0
  applied=0
  for file in "$first/src/plugins/$name/migrations/"[0-9]*-*.ts; do
    [ -e "$file" ] || continue
    base=$(basename "$file" .ts)
    migrations=$((migrations + 1))
    if grep -qxF "[X] ${base#*-}${base%%-*}" <<<"$status"; then applied=$((applied + 1)); fi
  done
  if [ "$migrations" -gt 0 ] && [ "$applied" = "$migrations" ]; then
    pass "PLUGINS=$name is accepted and its $migrations migration(s) are applied"
  else
    echo "plugin-tutorial: migration:show with PLUGINS=$name answered:" >&2
    echo "$status" >&2
    fail "PLUGINS=$name is accepted and its migrations are applied"
  fi

  second="$scratch/second"
  copy_checkout "$second"
  mv "$first/src/plugins/$name" "$second/src/plugins/$name"
  echo "plugin-tutorial: $name moved into a fresh copy, registered and tested there"
  if (cd "$second" && env -u DATABASE_URL -u DATA_DIR -u PLUGINS bash -c "set -euo pipefail; npm run plugin:new -- --existing $name; npm run test:e2e -- src/plugins/$name"); then
    pass "$name moved into a fresh checkout and registered passes its tests"
  else
    fail "$name moved into a fresh checkout and registered passes its tests"
  fi
  if only_registered "$second" "$name"; then
    pass "registering the moved-in $name changed one line of src/plugins/registry.ts"
  else
    fail "registering the moved-in $name changed one line of src/plugins/registry.ts"
  fi
fi

passed=$(grep -c '^pass' "$results" || true)
failed=$(grep -c '^fail' "$results" || true)
sed 's/^/plugin-tutorial: /' "$results"
echo "plugin-tutorial: $passed passed, $failed failed in $(($(date +%s) - started)) s"
[ -z "${PLUGIN_TUTORIAL_RESULTS:-}" ] || printf '{"passed": %d, "failed": %d}\n' "$passed" "$failed" >"$PLUGIN_TUTORIAL_RESULTS"
[ "$failed" = 0 ]
