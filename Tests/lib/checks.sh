# The helpers every shell check under Tests/ uses; source it, do not run it:
#   . "$repo/Tests/lib/checks.sh"
# Each check prints "ok - NAME", "FAIL - NAME: WHY" or "skip - NAME (WHY)";
# `summary` prints "N passed, N failed" and is the script's exit status.

passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1${2:+: $2}"; }
skip() { skipped=$((skipped + 1)); echo "skip - $1${2:+ ($2)}"; }

# What a failed check shows of its command's output; a script may redefine it.
check_output() { head -20; }
# check NAME COMMAND...: passes when the command succeeds.
check() {
  local name=$1 out
  shift
  if out=$("$@" 2>&1); then ok "$name"; else fail "$name" "$(printf '%s' "$out" | check_output)"; fi
}

# wait_for SECONDS COMMAND...: polls the command (its output dropped) every
# 0.2 s until it succeeds; fails after SECONDS, or sooner at checks_deadline
# (a $SECONDS value) when the script sets one to bound the whole check.
wait_for() {
  local deadline=$((SECONDS + $1))
  [ -z "${checks_deadline:-}" ] || [ "$deadline" -le "$checks_deadline" ] || deadline=$checks_deadline
  shift
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.2
  done
}

# summary [--skipped]: "N passed, N failed" (", N skipped" with --skipped);
# its status is the check's: 1 when a check failed.
summary() {
  echo "$passed passed, $failed failed${1:+, $skipped skipped}"
  [ "$failed" -eq 0 ]
}

# private_bus_config LISTEN_DIR [SERVICE_DIR]: scripts/session-bus.conf (what
# the Swift tests' bus runs with) listening in LISTEN_DIR, activating only the
# services in SERVICE_DIR.
private_bus_config() {
  local conf
  conf=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/session-bus.conf
  sed -e '/<!--/,/-->/d' -e "s|<listen>.*</listen>|<listen>unix:dir=$1</listen>${2:+<servicedir>$2</servicedir>}|" "$conf"
}
