#!/usr/bin/env bash
# The Contract-Diff gate of CI (L12.2): the contract is compared against every published snapshot
# AND against the contract at the git baseline, so a breaking change fails CI even before the
# first publication. The baseline is the merge base with main (origin/main, else a local main); on
# main itself, the previous commit. Without any git baseline (not a git work tree, a shallow or a
# single-commit clone) the gate says so visibly instead of passing in silence.
#
# Usage: tools/diff-gate.sh [PROJECT_ROOT] [-- extra diff options, e.g. --format github]
# Exit: 0 compatible, 1 a breaking change (or another diff failure), 2 usage or input error.
set -uo pipefail

cli="$(cd "$(dirname "$0")/.." && pwd)/bin/skillpilot.js"
root="."
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  root="$1"
  shift
fi
[ "${1:-}" = "--" ] && shift
snapshot="generated/contract.snapshot.json"

notice() { echo "contract-diff gate: $*" >&2; }

# The commit the contract is compared against: the merge base with main, or HEAD~1 on main.
git_baseline() {
  git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1 || return 1
  local head main="" base=""
  head=$(git -C "$root" rev-parse --verify -q HEAD) || return 1
  for ref in refs/remotes/origin/main refs/heads/main; do
    if git -C "$root" rev-parse --verify -q "$ref^{commit}" >/dev/null; then
      main="$ref"
      break
    fi
  done
  [ -n "$main" ] && base=$(git -C "$root" merge-base "$main" HEAD 2>/dev/null)
  if [ -z "$base" ] || [ "$base" = "$head" ]; then
    base=$(git -C "$root" rev-parse --verify -q "HEAD~1^{commit}") || return 1
  fi
  echo "$base"
}

status=0
echo "contract-diff gate: against every published snapshot" >&2
node "$cli" -C "$root" diff "$@" || status=$?

if base=$(git_baseline); then
  if git -C "$root" cat-file -e "$base:$snapshot" 2>/dev/null; then
    echo "contract-diff gate: against git:$base" >&2
    # A development commit declares no release: breaking changes fail, version bumps are not judged.
    node "$cli" -C "$root" diff --against "git:$base" --no-version-check "$@"
    rc=$?
    [ $rc -gt $status ] && status=$rc
  else
    notice "NOTICE: the baseline commit ${base:0:12} has no $snapshot; only published snapshots were compared"
  fi
else
  notice "NOTICE: no git baseline (not a git work tree, or a shallow or single-commit clone); only published snapshots were compared"
fi
exit $status
