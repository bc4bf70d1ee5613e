#!/usr/bin/env bash
# make test-asan / make test-tsan: the whole test suite built and run with a
# sanitizer, on the same private session bus as `make test`. See docs/hardening.md.
#
#   scripts/test-sanitized.sh address|thread [swift test arguments, e.g. --filter X]
#
# Builds in .build/asan or .build/tsan (the normal build stays as it is). Every
# instrumented process (the test runner and the relavoi-agent processes the
# black-box tests start) writes its reports to .build/<asan|tsan>/reports/;
# they are printed at the end, and any report fails the run.
set -euo pipefail
sanitizer=${1:?usage: $0 address|thread [swift test arguments]}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
swift=${SWIFT:-swift}
case $sanitizer in
    address) short=asan ;;
    thread) short=tsan ;;
    *) echo "usage: $0 address|thread" >&2; exit 2 ;;
esac
scratch=$root/.build/$short
reports=$scratch/reports

shim=$root/.build/pkgconfig
[[ -f $shim/libsoup-3.0.pc ]] || scripts/pkgconfig-shim.sh "$shim"
export PKG_CONFIG_PATH=$shim${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}

# gold cannot export the sanitizer runtime's local helper symbols and says so
# for every binary: harmless, filtered.
"$swift" build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" 2>&1 \
    | { grep -v "Cannot export local symbol" || true; }

rm -rf "$reports"
mkdir -p "$reports"
# The Swift backtracer would report a sanitizer abort as a crash of its own: off.
export SWIFT_BACKTRACE=enable=no
symbolizer=$(command -v llvm-symbolizer || true)
[[ -z $symbolizer ]] || export ASAN_SYMBOLIZER_PATH=$symbolizer TSAN_SYMBOLIZER_PATH=$symbolizer
common="log_path=$reports/$short:log_exe_name=1${symbolizer:+:external_symbolizer_path=$symbolizer}"
if [[ $short == asan ]]; then
    # Memory errors abort (abort_on_error); leaks only write their report
    # (exitcode=0), judged below, so a test sees the agent's own exit status.
    # GLib has no frame pointers: the slow unwinder gives whole allocation stacks.
    export ASAN_OPTIONS="$common:detect_leaks=1:abort_on_error=1:exitcode=0:fast_unwind_on_malloc=0:malloc_context_size=30:${ASAN_EXTRA:-}"
    export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0"
else
    export TSAN_OPTIONS="$common:suppressions=$root/scripts/tsan.supp:halt_on_error=0:second_deadlock_stack=1:${TSAN_EXTRA:-}"
fi

status=0
RELAVOI_TEST_LOGS=$scratch/test-logs SWIFT=$swift scripts/run-tests.sh --sanitize="$sanitizer" --scratch-path "$scratch" "$@" || status=$?

# Judge the reports (docs/hardening.md, "Reading the reports"):
# - any ASan memory error or TSan warning (after scripts/tsan.supp) fails;
# - a leak entry whose stack has formWeakReference is a Swift weak-reference
#   side table: its pointer is kept shifted in the object header, invisible to
#   LeakSanitizer; if its object leaked too, that object is its own entry. Ignored;
# - relavoi-agent (the product, started by the black-box tests): every other leak fails;
# - the test runner: its leaks (XCTest's test cases and what they hold, Foundation's
#   Process objects, library internals) are listed for information.
/usr/bin/python3 - "$reports" <<'PY' || status=$((status == 0 ? 1 : status))
import collections, glob, os, re, sys

ALLOCATORS = re.compile(
    r"\b(malloc|calloc|realloc|posix_memalign|operator new|g_malloc0?|g_realloc|g_try_malloc0?|g_memdup2?|g_strdup|"
    r"g_strndup|g_slice_alloc0?|swift_slowAlloc|swift_allocObject|swift_allocBox|swift_retain)\b|"
    r"_allocateStringStorage|__StringStorage|_StringGuts|_ContiguousArrayBuffer|_allocateUninitializedArray|"
    r"_DictionaryStorage|_uncheckedFromUTF8|DefaultStringInterpolation")

def frames(stack):
    return re.findall(r"#(\d+) 0x[0-9a-f]+ (?:in (\S+)(?: (\S+))?|\((\S+?)\+)", stack)

def site(stack):
    for _, function, location, module in frames(stack):
        name = function or module
        if name and not ALLOCATORS.search(name):
            return f"{name[:100]} {location or module or ''}".strip()
    return "?"

failed = False
side_tables = 0
product = collections.OrderedDict()   # allocation site -> [bytes, allocations, processes, stack]
runner = collections.Counter()
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*"))):
    text = open(path, errors="replace").read()
    exe = os.path.basename(path).split(".", 1)[1].rsplit(".", 1)[0]
    for block in re.findall(r"^(?:==[^\n]*==ERROR: AddressSanitizer|WARNING: ThreadSanitizer)[^\n]*\n(?:.*\n)*?(?=^SUMMARY|\Z)", text, re.M):
        failed = True
        print(f"FAIL {os.path.basename(path)}:")
        for line in block.splitlines():
            if re.match(r"^(==|WARNING|  [A-Z][a-z]+ (of|by)|    #[0-7] |  (Previous|Location|Mutex|Thread) )", line):
                print("   " + line[:220])
    for kind, size, count, stack in re.findall(
            r"^(Direct|Indirect) leak of (\d+) byte\(s\) in (\d+) object\(s\) allocated from:\n((?:    #\d+ .*\n?)+)", text, re.M):
        if "formWeakReference" in stack:
            side_tables += int(count)
            continue
        where = f"{kind.lower()}, allocated in {site(stack)}"
        if exe.endswith(".xctest"):
            runner[where] += int(size)
        else:
            entry = product.setdefault(f"{exe}: {where}", [0, 0, set(), stack])
            entry[0] += int(size)
            entry[1] += int(count)
            entry[2].add(os.path.basename(path))
for where, (size, count, paths, stack) in product.items():
    failed = True
    print(f"FAIL leak in {where}: {size} bytes in {count} allocation(s), {len(paths)} process(es), e.g. {sorted(paths)[0]}")
    for number, function, location, module in frames(stack)[:10]:
        print(f"     #{number} {(function or module)[:130]} {location or ''}")
if runner:
    print(f"Test-runner leaks (information only; {sum(runner.values())} bytes), largest first:")
    for where, size in runner.most_common(12):
        print(f"   {size:8} bytes  {where}")
if side_tables:
    print(f"Ignored {side_tables} Swift weak-reference side table(s) (a LeakSanitizer false positive; see docs/hardening.md).")
sys.exit(1 if failed else 0)
PY
echo "== test-$short: $([[ $status -eq 0 ]] && echo passed || echo "FAILED (status $status)")"
exit "$status"
