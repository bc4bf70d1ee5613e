#!/usr/bin/env bash
# The Swift test suite (XCTest and Swift Testing) on a private session bus, as
# `make test` and scripts/test-sanitized.sh run it.
#
#   scripts/run-tests.sh [swift test arguments, e.g. --filter X or --sanitize=address]
#
# The process tests start real agents, servers and buses on a shared machine; a
# stall of the whole machine runs out any wait (in CI on 2026-12-02, the agent
# and the test process of one test both made no progress for about 97 s). So
# when only a few XCTest cases fail, and the run itself did not crash, each of
# them runs once more on a fresh bus: the run passes only if every one of them
# passes then. The first failure stays in the output and the summary names the
# test, so a flaky test is seen, not hidden. Anything else (a crash, a Swift
# Testing failure, more than RELAVOI_TEST_RETRIES failures,
# RELAVOI_TEST_RETRIES=0) fails at once.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
swift=${SWIFT:-swift}
max_retries=${RELAVOI_TEST_RETRIES:-3}
logs=${RELAVOI_TEST_LOGS:-$root/.build/test-logs}
mkdir -p "$logs"

# A 1 s ticker beside each run: its longest pause, printed when a run fails,
# tells a stall of the machine from a test that hangs on its own.
tick() {
    local up
    while :; do
        read -r up _ </proc/uptime && echo "$up $(date -u +%T)"
        sleep 1
    done
}
longest_pause() { # ticks file
    awk 'NR > 1 && $1 - last > worst { worst = $1 - last; at = $2 }
        { last = $1 }
        END { printf "the longest pause of a 1 s ticker beside the run: %.1f s (up to %s UTC)\n", worst, at }' "$1"
}

ticker=""
trap '[[ -z $ticker ]] || kill "$ticker" 2>/dev/null' EXIT
run() { # log file, swift test arguments
    local log=$1 status
    shift
    tick >"$log.ticks" &
    ticker=$!
    dbus-run-session --config-file="$root/scripts/session-bus.conf" -- \
        "$swift" test --skip-build "$@" 2>&1 | tee "$log"
    status=$?
    kill "$ticker" 2>/dev/null
    wait "$ticker" 2>/dev/null
    ticker=""
    [[ $status -eq 0 ]] || echo "== $(longest_pause "$log.ticks")" >&2
    return "$status"
}

first=$logs/first.log
run "$first" "$@"
status=$?
[[ $status -eq 0 ]] && exit 0

# XCTest prints "Test Case 'Class.method' failed (1.2 seconds)" for each failure.
mapfile -t failed < <(sed -nE "s/^Test Case '([A-Za-z0-9_]+)\.([A-Za-z0-9_]+)' failed \(.*/\1\/\2/p" "$first" | sort -u)
crashed=$(grep -ciE "exited with (unexpected )?signal|Fatal error" "$first")
# Swift Testing marks each failed test and issue with ✘.
swift_testing_failed=$(grep -c "✘ Test" "$first")

reason=""
if [[ ${#failed[@]} -eq 0 ]]; then
    reason="no XCTest case failed, so the failure is elsewhere (a build, a crash or Swift Testing)"
elif [[ $crashed -gt 0 ]]; then
    reason="the test process crashed"
elif [[ $swift_testing_failed -gt 0 ]]; then
    reason="Swift Testing tests failed"
elif [[ ${#failed[@]} -gt $max_retries ]]; then
    reason="${#failed[@]} XCTest cases failed (more than $max_retries are not run again)"
fi
if [[ -n $reason ]]; then
    echo "== swift test failed (status $status): $reason" >&2
    exit "$status"
fi

# The filter is a regular expression over "Module.Class/method"; one for all.
pattern=$(printf '\\.%s$|' "${failed[@]}")
pattern=${pattern%|}
echo "== ${#failed[@]} XCTest case(s) failed: ${failed[*]}; each runs once more on a fresh bus" >&2
# Any --filter of the first run is replaced by the failed cases' own.
args=()
skip_next=false
for arg in "$@"; do
    if $skip_next; then skip_next=false; continue; fi
    case $arg in
        --filter) skip_next=true ;;
        --filter=*) ;;
        *) args+=("$arg") ;;
    esac
done
second=$logs/second.log
run "$second" "${args[@]}" --filter "$pattern"
retry_status=$?
passed=$(grep -cE "^Test Case '.*' passed \(" "$second")
if [[ $retry_status -eq 0 && $passed -ge ${#failed[@]} ]]; then
    {
        echo "== FLAKY: these failed in the first run (its output above, and $first)"
        echo "   and passed when run again alone:"
        printf '   %s\n' "${failed[@]}"
    } >&2
    printf '%s %s\n' "$(date -u +%FT%TZ)" "${failed[*]}" >>"$logs/flaky.txt"
    exit 0
fi
echo "== swift test failed: ${failed[*]} failed again (status $retry_status, $passed of ${#failed[@]} passed)" >&2
exit $((retry_status == 0 ? 1 : retry_status))
