#!/usr/bin/env bash
# The contract gates of CI (L12): release verify, the 11-point gate lint, Skill-Contract-Lint and
# Contract-Diff. Contract-Diff runs against every published snapshot AND against the contract at the
# git baseline, so a breaking change fails CI even before the first publication (L12.2); verify
# judges the contract line's transitions from the line at that baseline too (L11). The baseline is
# the merge base with main (origin/main, else a local main); on main itself, the previous commit.
# Without any git baseline (not a git work tree, a shallow or a single-commit clone) the gates say
# so visibly instead of passing in silence.
#
# Usage: tools/ci-gates.sh [PROJECT_ROOT] [-- report options for every gate, e.g. --format github]
# Exit: 0 all gates pass, 1 a finding (breaking change, failed check), 2 usage or input error.
set -uo pipefail

cli="$(cd "$(dirname "$0")/.." && pwd)/bin/skillpilot.js"
root="."
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  root="$1"
  shift
fi
[ "${1:-}" = "--" ] && shift
snapshot="generated/contract.snapshot.json"

notice() { echo "contract gates: NOTICE: $*" >&2; }

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
gate() {
  echo "contract gates: $*" >&2
  node "$cli" -C "$root" "$@"
  local rc=$?
  [ $rc -gt $status ] && status=$rc
  return 0
}

base=""
if base=$(git_baseline); then
  echo "contract gates: git baseline $base" >&2
else
  base=""
  notice "no git baseline (not a git work tree, or a shallow or single-commit clone); the line and the contract are compared with the release records only"
fi

gate verify ${base:+--since "git:$base"} "$@"
gate lint "$@"
gate skill-lint "$@"
gate diff "$@"
if [ -n "$base" ]; then
  if git -C "$root" cat-file -e "$base:$snapshot" 2>/dev/null; then
    # A development commit declares no release: breaking changes fail, version bumps are not judged.
    gate diff --against "git:$base" --no-version-check "$@"
  else
    notice "the baseline commit ${base:0:12} has no $snapshot; the contract was compared with published snapshots only"
  fi
fi
exit $status
