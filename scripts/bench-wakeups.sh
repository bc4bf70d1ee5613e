#!/usr/bin/env bash
# By hand, not part of make bench (docs/bench.md, "Wake-ups of a live call"):
# wake-ups per thread of release agents and of the reference client, alternating
# in the same rounds, on python3-dbusmock's notification daemon.
#
#   scripts/bench-wakeups.sh OUTDIR ROUNDS SECONDS NAME=AGENT...
#
# AGENT is a release relavoi-agent (the bench's build: .build/release); the
# reference client is `relavoi-bench ticker --banners 1` and the server
# relavoi-sandbox, both beside the first agent unless RELAVOI_BENCH and
# RELAVOI_SANDBOX name them. Each round, each agent (every other round in
# reverse order): relavoi-sandbox with one session; the agent connects; SETTLE
# (default 10) s later an idle window of SECONDS; then a call rings and is
# answered, and 3.5 s after `ctl list` shows it live, a window of SECONDS with
# its one live banner. Then the reference client, from 2.2 s after its start.
# Wake-ups: voluntary context switches per thread (/proc/PID/task/*/status),
# read before and after each window; a process's first thread is `main`.
# TRACE=DIR straces every window instead of sleeping through it (a separate
# run: strace costs wake-ups); PERF=DIR records each window's context switches
# with their kernel stacks (perf record -e sched:sched_switch -g), to tell a
# sleep in poll from one on a lock. Writes OUTDIR/results.txt, prints a summary.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -z "${BENCH_WAKEUPS_BUS:-}" ]; then
  exec dbus-run-session --config-file="$repo/scripts/session-bus.conf" -- \
    env BENCH_WAKEUPS_BUS=1 "$0" "$@" 2> >(grep -v --line-buffered 'Failed to set fd limit' >&2)
fi
[ $# -ge 4 ] || { echo "usage: $0 OUTDIR ROUNDS SECONDS NAME=AGENT..." >&2; exit 2; }
out=$1 rounds=$2 seconds=$3
shift 3
agents=("$@")
first=${agents[0]#*=}
bench=${RELAVOI_BENCH:-$(dirname "$first")/relavoi-bench}
sandbox=${RELAVOI_SANDBOX:-$(dirname "$first")/relavoi-sandbox}
settle=${SETTLE:-10}
mkdir -p "$out"
results=$out/results.txt
: >"$results"
say() { echo "bench-wakeups: $*" >&2; }
wait_for() { # SECONDS COMMAND...
  local limit=$1 i
  shift
  for ((i = 0; i < limit * 10; i++)); do "$@" && return 0; sleep 0.1; done
  return 1
}
owned() {
  gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.NameHasOwner "$1" 2>/dev/null | grep -q true
}
threads() { # PID: "tid name voluntary" per thread
  local t name
  for t in /proc/"$1"/task/*; do
    name=$(tr ' ' _ <"$t/comm" 2>/dev/null)
    [ "${t##*/}" != "$1" ] || name=main
    printf '%s %s %s\n' "${t##*/}" "$name" "$(awk '/^voluntary_ctxt_switches/ { print $2 }' "$t/status" 2>/dev/null)"
  done
}
# window LABEL ROUND PID: SECONDS of wall time; one line per thread name in $results.
window() {
  local label=$1 round=$2 pid=$3 before after start end
  before=$(threads "$pid")
  start=$(date +%s.%N)
  if [ -n "${TRACE:-}" ]; then
    mkdir -p "$TRACE"
    timeout -s INT "$seconds" strace -f -tt -qq -o "$TRACE/$label-r$round.strace" -p "$pid" 2>/dev/null
  elif [ -n "${PERF:-}" ]; then
    mkdir -p "$PERF"
    echo "$pid" >"$PERF/$label-r$round.pid"
    perf record -q -e sched:sched_switch -g -p "$pid" -o "$PERF/$label-r$round.data" -- sleep "$seconds" 2>/dev/null
  else
    sleep "$seconds"
  fi
  end=$(date +%s.%N)
  after=$(threads "$pid")
  awk -v label="$label" -v round="$round" -v s="$(echo "$end - $start" | bc)" '
    FNR == NR { base[$1] = $3; next }
    { d = $3 - ($1 in base ? base[$1] : 0); by[$2] += d; total += d }
    END { for (n in by) printf "%s %s %s %d %.3f\n", label, round, n, by[n], s
          printf "%s %s TOTAL %d %.3f\n", label, round, total, s }' \
    <(echo "$before") <(echo "$after") >>"$results"
}

# The sandbox's fixed test credentials (docs/sandbox.md), never valid elsewhere.
key=rk_test_5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d
tenant=5a4d0000-0000-4000-8000-00000000c0de
secret=rs_0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de
(umask 077 && printf '%s' "$secret" >"$out/secret")

/usr/bin/python3 -m dbusmock --template notification_daemon -l "$out/dbusmock.log" >/dev/null 2>&1 &
mock=$!
trap 'kill $mock 2>/dev/null' EXIT
wait_for 15 owned org.freedesktop.Notifications || { say "python3-dbusmock did not start"; exit 1; }

one_agent() { # NAME BINARY ROUND
  local name=$1 bin=$2 round=$3 work=$out/$1-r$3 sandbox_pid agent_pid
  mkdir -p "$work/config/relavoi"
  printf '[agent]\nmax-banners = 10\n' >"$work/config/relavoi/agent.conf"
  cat >"$work/call.scenario" <<EOF
{"at":0,"session":{"id":"sess-w","proxyNumber":"+2348000000001","metadata":{"label":"Chowdeck rider"},"userPhones":["+2348000000099"],"expiresAt":7200}}
{"at":0,"waitForClient":true}
{"at":$((seconds + settle + 5)),"event":"call.incoming","payload":{"sessionId":"sess-w","proxyNumber":"+2348000000001"}}
{"at":$((seconds + settle + 6)),"event":"call.answered","payload":{"sessionId":"sess-w","cpaasSessionId":"cp-w"}}
{"at":3600,"event":"call.ended","payload":{"sessionId":"sess-w","cpaasSessionId":"cp-w","durationSeconds":3589}}
EOF
  "$sandbox" --scenario "$work/call.scenario" >"$work/sandbox.log" 2>&1 &
  sandbox_pid=$!
  wait_for 30 grep -qs '^READY ' "$work/sandbox.log" || { say "relavoi-sandbox did not start"; kill $sandbox_pid; return 1; }
  env XDG_CONFIG_HOME="$work/config" RELAVOI_BASE_URL="$(sed -n 's/^READY //p' "$work/sandbox.log" | head -1)" \
    RELAVOI_API_KEY="$key" RELAVOI_TENANT_ID="$tenant" RELAVOI_API_SECRET_FILE="$out/secret" \
    G_SLICE=always-malloc "$bin" >"$work/agent.log" 2>&1 &
  agent_pid=$!
  wait_for 30 sh -c "XDG_CONFIG_HOME='$work/config' '$bin' ctl status 2>/dev/null | grep -qi connected" ||
    say "$name round $round: the stream did not connect"
  sleep "$settle"
  window "$name-idle" "$round" "$agent_pid"
  wait_for 60 sh -c "XDG_CONFIG_HOME='$work/config' '$bin' ctl list 2>/dev/null | grep -qE '(live|active).*Chowdeck'" ||
    say "$name round $round: the call did not go live"
  sleep 3.5
  window "$name-live" "$round" "$agent_pid"
  kill "$agent_pid"
  wait "$agent_pid" 2>/dev/null
  kill "$sandbox_pid"
  wait "$sandbox_pid" 2>/dev/null
}

for ((round = 1; round <= rounds; round++)); do
  order=("${agents[@]}")
  if ((round % 2 == 0)); then
    order=()
    for ((i = ${#agents[@]} - 1; i >= 0; i--)); do order+=("${agents[i]}"); done
  fi
  for pair in "${order[@]}"; do
    say "round $round: ${pair%%=*}"
    one_agent "${pair%%=*}" "${pair#*=}" "$round"
  done
  say "round $round: the reference client"
  "$bench" ticker --banners 1 >"$out/ticker-r$round.log" 2>&1 &
  ticker=$!
  sleep 2.2
  window reference-live "$round" "$ticker"
  kill "$ticker"
  wait "$ticker" 2>/dev/null
done

# Per window and thread: wake-ups a second, the median and min-max over the rounds.
awk '{ key = $1 " " $3; n[key]++; v[key, n[key]] = $4 / $5 }
  END {
    for (key in n) {
      m = n[key]
      for (i = 1; i <= m; i++) a[i] = v[key, i]
      for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      median = m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
      split(key, k, " ")
      printf "%-16s %-16s %5.2f /s  (%.2f-%.2f, %d rounds)\n", k[1], k[2], median, a[1], a[m], m
    }
  }' "$results" | sort
say "per round: $results"
