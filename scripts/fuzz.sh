#!/usr/bin/env bash
# make fuzz: builds the libFuzzer targets (Fuzz/fuzz-*) with
# -sanitize=fuzzer,address and runs each for FUZZ_SECONDS (default 60).
# A crash, an ASan error, a leak (LeakSanitizer) or an input slower than 5 s
# fails the run. See docs/hardening.md.
#
#   FUZZ_SECONDS=60                         seconds per target
#   FUZZ_TARGETS="fuzz-frames fuzz-settings fuzz-dbus fuzz-tray-menu"
#   FUZZ_SCRATCH=.build/fuzz                build and working directory
#
# Seeds come from Fuzz/corpus/<target> (read only) and the fixed findings in
# Fuzz/crashes/<target>; what libFuzzer adds goes to $FUZZ_SCRATCH/work/corpus,
# crash inputs to $FUZZ_SCRATCH/work/artifacts/<target>/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-fuzz-frames fuzz-settings fuzz-dbus fuzz-tray-menu}
scratch=${FUZZ_SCRATCH:-$root/.build/fuzz}
work=$scratch/work
swift=${SWIFT:-swift}

# The pkg-config shim `make` uses (flattened .pc files without -pthread).
shim=$root/.build/pkgconfig
[[ -f $shim/libsoup-3.0.pc ]] || scripts/pkgconfig-shim.sh "$shim"
export PKG_CONFIG_PATH=$shim${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}

# libFuzzer is linked from the toolchain's compiler-rt; its driver is exported so
# FuzzDriver (Fuzz/Driver) finds it with dlsym. gold warns that it cannot export
# ASan's local helper symbols: harmless, filtered.
build_flags=(--scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address
    -Xlinker --export-dynamic-symbol=LLVMFuzzerRunDriver)
for target in $targets; do
    echo "== building $target (-sanitize=fuzzer,address)"
    "$swift" build "${build_flags[@]}" --product "$target" 2>&1 | { grep -v "Cannot export local symbol" || true; } \
        || { echo "fuzz.sh: building $target failed" >&2; exit 1; }
done
bin=$("$swift" build "${build_flags[@]}" --show-bin-path)

# The Swift runtime's backtracer would catch the crash before libFuzzer and
# ASan can report it (and ASan flags the backtracer itself): off.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:symbolize=1:handle_abort=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/scripts/lsan.supp:print_suppressions=0}
symbolizer=$(command -v llvm-symbolizer || true)
[[ -n $symbolizer ]] || [[ ! -x /opt/swift/usr/bin/llvm-symbolizer ]] || symbolizer=/opt/swift/usr/bin/llvm-symbolizer
[[ -z $symbolizer ]] || export ASAN_SYMBOLIZER_PATH=$symbolizer

declare -A max_len=([fuzz-frames]=16384 [fuzz-settings]=4096 [fuzz-dbus]=2048 [fuzz-tray-menu]=1024)
failed=()
summary=()
for target in $targets; do
    mkdir -p "$work/corpus/$target" "$work/artifacts/$target" "$work/logs"
    log=$work/logs/$target.log
    corpora=("$work/corpus/$target" "Fuzz/corpus/$target")
    [[ -d Fuzz/crashes/$target ]] && corpora+=("Fuzz/crashes/$target")
    echo "== fuzzing $target for ${seconds}s (log: $log)"
    status=0
    "$bin/$target" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len="${max_len[$target]:-4096}" \
        -use_value_profile=1 -print_final_stats=1 -dict="Fuzz/dict/$target.dict" \
        -artifact_prefix="$work/artifacts/$target/" "${corpora[@]}" >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
    line="$target: ${runs:-?} executions in ${seconds}s (${speed:-?}/s), ${cov:-cov: ?}, peak RSS ${rss:-?} MB"
    if [[ $status -ne 0 ]]; then
        failed+=("$target")
        line+=", FAILED (exit $status)"
        echo "-- $target failed; the report:"
        grep -E "^(==[0-9]+==ERROR|SUMMARY|ALARM|Fatal error|.*Fatal error:|    #[0-9]+ |artifact_prefix|Test unit written|==[0-9]+== ERROR: libFuzzer)" "$log" | head -40
        echo "-- reproduce:  $bin/$target <artifact>   (plain build: .build/debug/$target <artifact>)"
        echo "-- minimize:   $bin/$target -minimize_crash=1 -runs=20000 <artifact>"
        echo "-- once fixed, keep it as a fixture: Fuzz/crashes/$target/ (replayed by the tests)"
    fi
    summary+=("$line")
done

echo
echo "== make fuzz summary (FUZZ_SECONDS=$seconds)"
printf '%s\n' "${summary[@]}"
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "fuzz.sh: findings in ${failed[*]} (artifacts under $work/artifacts)" >&2
    exit 1
fi
