#!/usr/bin/env bash
# The contract gates of CI (L12): release verify, the 11-point gate lint, Skill-Contract-Lint and
# Contract-Diff. Contract-Diff runs against every published snapshot AND against every git baseline
# that stands for a contract hosts may already have seen, so a breaking change fails CI even before
# the first publication and even when unrelated commits were pushed after it (L12.2):
#
#   1. $SKILLPILOT_GATES_BASELINE — the commit CI last judged green, e.g. the push's previous head
#      (GitHub Actions: github.event.before; GitLab: CI_COMMIT_BEFORE_SHA);
#   2. refs/skillpilot/gates-passed — written by a green run with --record (and fetched from origin
#      by .ci/run when the remote has it);
#   3. the newest commit listed in contracts/gates-baseline.json that is an ancestor of HEAD — the
#      committed record of landings whose gates passed, for CI that starts from a fresh clone;
#   4. the merge base with main (origin/main, else a local main), or on main itself the previous
#      commit.
#
# verify judges the contract line's transitions from the newest of these (4).
#
# Usage: tools/ci-gates.sh [PROJECT_ROOT] [--record] [-- report options for every gate, e.g. --format github]
#   --record   after every gate passed, point refs/skillpilot/gates-passed at HEAD
# Exit: 0 all gates pass, 1 a finding (breaking change, failed check), 2 usage or input error.
set -uo pipefail

cli="$(cd "$(dirname "$0")/.." && pwd)/bin/skillpilot.js"
root="."
record=0
if [ $# -gt 0 ] && [ "$1" != "--" ] && [ "$1" != "--record" ]; then
  root="$1"
  shift
fi
if [ "${1:-}" = "--record" ]; then
  record=1
  shift
fi
[ "${1:-}" = "--" ] && shift
snapshot="generated/contract.snapshot.json"
passed_ref="refs/skillpilot/gates-passed"
anchor_file="contracts/gates-baseline.json"

notice() { echo "contract gates: NOTICE: $*" >&2; }
g() { git -C "$root" "$@"; }
commit_of() { g rev-parse --verify -q "$1^{commit}" 2>/dev/null; }

# The merge base with main, or HEAD~1 on main.
merge_baseline() {
  local head main="" base=""
  head=$(commit_of HEAD) || return 1
  for ref in refs/remotes/origin/main refs/heads/main; do
    if commit_of "$ref" >/dev/null; then
      main="$ref"
      break
    fi
  done
  [ -n "$main" ] && base=$(g merge-base "$main" HEAD 2>/dev/null)
  if [ -z "$base" ] || [ "$base" = "$head" ]; then
    base=$(commit_of HEAD~1) || return 1
  fi
  echo "$base"
}

# The newest commit of the committed landing record that is an ancestor of HEAD.
anchor_baseline() {
  local list c
  list=$(g show "HEAD:$anchor_file" 2>/dev/null | node -e '
    let t = "";
    process.stdin.on("data", (d) => (t += d)).on("end", () => {
      try {
        const doc = JSON.parse(t);
        for (const e of [...(doc.passed ?? [])].reverse()) console.log(e.commit);
      } catch { process.exit(0); }
    });') || return 1
  for c in $list; do
    if commit_of "$c" >/dev/null && g merge-base --is-ancestor "$c" HEAD 2>/dev/null; then
      commit_of "$c"
      return 0
    fi
  done
  return 1
}

status=0
gate() {
  echo "contract gates: $*" >&2
  node "$cli" -C "$root" "$@"
  local rc=$?
  [ $rc -gt $status ] && status=$rc
  return 0
}

declare -a baselines=() labels=()
add_baseline() {
  local c
  c=$(commit_of "$1") || { notice "$2 ($1) is not a commit of this clone; it was not compared"; return; }
  for b in "${baselines[@]}"; do [ "$b" = "$c" ] && return; done
  baselines+=("$c")
  labels+=("$2")
}

if g rev-parse --is-inside-work-tree >/dev/null 2>&1 && commit_of HEAD >/dev/null; then
  [ -n "${SKILLPILOT_GATES_BASELINE:-}" ] &&
    add_baseline "$SKILLPILOT_GATES_BASELINE" "the previous green head (SKILLPILOT_GATES_BASELINE)"
  commit_of "$passed_ref" >/dev/null && add_baseline "$passed_ref" "the last green gates run ($passed_ref)"
  if anchor=$(anchor_baseline); then add_baseline "$anchor" "the last recorded landing ($anchor_file)"; fi
  if merge=$(merge_baseline); then add_baseline "$merge" "the merge base with main (on main: the previous commit)"; fi
fi
newest="${merge:-}"

if [ ${#baselines[@]} -eq 0 ]; then
  notice "no git baseline (not a git work tree, or a shallow or single-commit clone); the line and the contract are compared with the release records only"
else
  for i in "${!baselines[@]}"; do
    echo "contract gates: git baseline ${baselines[$i]} — ${labels[$i]}" >&2
  done
fi

gate verify ${newest:+--since "git:$newest"} "$@"
gate lint "$@"
gate skill-lint "$@"
gate diff "$@"
against=()
for b in "${baselines[@]}"; do
  if g cat-file -e "$b:$snapshot" 2>/dev/null; then
    against+=(--against "git:$b")
  else
    notice "the baseline commit ${b:0:12} has no $snapshot; it was not compared"
  fi
done
# Development commits declare no release: breaking changes fail, version bumps are not judged.
[ ${#against[@]} -gt 0 ] && gate diff "${against[@]}" --no-version-check "$@"

if [ $status -eq 0 ] && [ $record -eq 1 ] && commit_of HEAD >/dev/null; then
  g update-ref "$passed_ref" HEAD && echo "contract gates: recorded $(commit_of HEAD) as $passed_ref" >&2
fi
exit $status
