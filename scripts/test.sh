#!/usr/bin/env bash
# The whole test suite on a fresh machine: install, format and lint checks, Release build + tests,
# a consumer project built against the installed CMake package,
# the output-hash check of the benchmark, ASan+UBSan build (clang) + tests, each libFuzzer target
# for FUZZ_SECONDS (default 60) under ASan+UBSan, and the parallel stages' thread tests under
# ThreadSanitizer. Every step prints its wall time; a summary table follows at the end.
# Usage: scripts/test.sh [--quick]   (--quick: Release build and tests only)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
quick=0
[[ "${1:-}" == "--quick" ]] && quick=1
jobs=$(nproc)
fuzz_seconds=${FUZZ_SECONDS:-60}

start_all=$(date +%s)
step_name=""
step_start=0
step_cpu=0
summary=()
cpu_file=$(mktemp)
cpu_now=0
# CPU seconds (user + system) of the finished child processes so far, in cpu_now. On a shared
# machine the CPU time is the robust measure; on an idle 2-core machine wall ~ CPU / 2 or more.
read_cpu() {
  # note: `times` must run in this shell, not in a $(...) subshell, to count the children
  times >"$cpu_file"
  cpu_now=$(awk 'function s(t, m) { m = t; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", t);
                                    sub(/s$/, "", t); return m * 60 + t }
                 NR == 2 { printf "%d\n", s($1) + s($2) }' "$cpu_file")
}
end_step() {
  if [[ -n "$step_name" ]]; then
    local took=$(($(date +%s) - step_start))
    read_cpu
    local cpu=$((cpu_now - step_cpu))
    printf -- '-- %s: %ds wall, %ds cpu\n' "$step_name" "$took" "$cpu"
    summary+=("$(printf '%6ds %6ds  %s' "$took" "$cpu" "$step_name")")
  fi
}
step() {
  end_step
  step_name="$*"
  step_start=$(date +%s)
  read_cpu
  step_cpu=$cpu_now
  printf '\n== %s\n' "$*"
}
finish() {
  end_step
  step_name=""
  read_cpu
  printf '\n== step times (wall, cpu; load average now: %s)\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
  printf '%s\n' "${summary[@]}"
  printf '%6ds %6ds  total\n' "$(($(date +%s) - start_all))" "$cpu_now"
  rm -f "$cpu_file"
}

trap finish EXIT

step "setup"
scripts/setup.sh

if ((quick == 0)); then
  step "format (clang-format --dry-run --Werror)"
  scripts/format.sh --check
fi

step "release build"
cmake --preset release -DLEAPNAV_WERROR=ON >/dev/null
cmake --build --preset release -j "$jobs"

step "release tests"
ctest --preset release

if ((quick == 1)); then
  exit 0
fi

step "lint (clang-tidy, warnings as errors)"
scripts/lint.sh build/release

step "consumer project against the installed package"
rm -rf build/install build/consumer
cmake --install build/release --prefix build/install >/dev/null
cmake -S tests/consumer -B build/consumer -G Ninja -DCMAKE_PREFIX_PATH="$root/build/install" >/dev/null
cmake --build build/consumer
build/consumer/consumer

step "C consumer against the installed package (C99, C compiler)"
rm -rf build/consumer_c
cmake -S tests/consumer_c -B build/consumer_c -G Ninja -DCMAKE_PREFIX_PATH="$root/build/install" >/dev/null
cmake --build build/consumer_c
(cd build/consumer_c && ./c_consumer)
# note: the C API's links are the CLI's for the same scene and options (the same file bytes), and
# every one passes the exact check
for set in compact full; do
  build/release/bin/leapnav build build/consumer_c/c_consumer_gap.obj --jump C2 --step 4 \
    --link-set "$set" -o "build/consumer_c/cli_gap_$set.lnav" >/dev/null
  cmp "build/consumer_c/c_consumer_gap_$set.lnav" "build/consumer_c/cli_gap_$set.lnav"
  build/release/bin/leapnav check-links --json "build/consumer_c/c_consumer_gap_$set.lnav" \
    build/consumer_c/c_consumer_gap.obj | grep '"links_failed": 0' >/dev/null
done
# the C API's tiled build is the CLI's `--tile-size 16`, jump links included
build/release/bin/leapnav build build/consumer_c/c_consumer_gap.obj --jump C2 --step 4 \
  --tile-size 16 -o build/consumer_c/cli_gap_tiled.lnav >/dev/null
cmp build/consumer_c/c_consumer_gap_tiled.lnav build/consumer_c/cli_gap_tiled.lnav
# the C API without the walkable-link filter is the CLI's `--keep-walkable-links`
build/release/bin/leapnav build build/consumer_c/c_consumer_bridge.obj --jump C2 --step 4 \
  --keep-walkable-links -o build/consumer_c/cli_bridge_off.lnav >/dev/null
cmp build/consumer_c/c_consumer_bridge_off.lnav build/consumer_c/cli_bridge_off.lnav
# ledge links from the C API are the CLI's `--ledge-links` for the same scene and configuration
# (the same navmesh and ledge hashes; the files differ only in the configuration's name)
build/release/bin/leapnav build build/consumer_c/c_consumer_rise.obj --ledge-links \
  --config build/consumer_c/c_consumer_rise.json -o build/consumer_c/cli_rise.lnav >/dev/null
for f in c_consumer_rise cli_rise; do
  build/release/bin/leapnav info --json "build/consumer_c/$f.lnav" |
    grep -E '"(hash|ledge_hash|ledge_links)"' > "build/consumer_c/$f.hashes"
done
grep -q '"ledge_links": 2' build/consumer_c/cli_rise.hashes
cmp build/consumer_c/c_consumer_rise.hashes build/consumer_c/cli_rise.hashes

# note: the C++, C and Python blocks of README.md and docs/*.md, compiled and run as written
# (tests/doc_examples/extract.py); a few seconds
step "documentation examples against the installed package (tests/doc_examples)"
rm -rf build/doc_examples
cmake -S tests/doc_examples -B build/doc_examples -G Ninja -DCMAKE_PREFIX_PATH="$root/build/install" \
  -DLEAPNAV_CLI="$root/build/release/bin/leapnav" -DLEAPNAV_PYTHONPATH="$root/build/release/python" \
  >/dev/null
cmake --build build/doc_examples
ctest --test-dir build/doc_examples --output-on-failure

# note: Debian's interpreter, which has the pybind11 module's numpy and pytest (scripts/setup.sh)
step "Python module tests (pytest)"
PYTHONPATH="$root/build/release/python" /usr/bin/python3 -m pytest -q python/tests

# note: the same output hashes for 1, 2, 4 and 8 threads and across repetitions, for the navmesh
# (build suite) and the C1-C3 jump links at step 8 (jump suite); real levels are skipped with a
# message when ../shared/meshes is absent.
step "benchmark output hashes (leapnav_bench --validate-hash)"
build/release/bin/leapnav_bench --validate-hash --suite build,jump --repeat 2 --threads 1,2,4,8 \
  --scenes dungeon,nav_test,demo,city:2 --configs default,thesis --city 1 --terrain 1 --steps 8 \
  --no-check-links --csv build/release/validate_hash.csv >/dev/null
echo "bench: $(($(wc -l <build/release/validate_hash.csv) - 1)) rows, no hash mismatch"

# note: installs chromium and the viewer's npm packages when missing; about 10 s once installed
step "viewer in headless Chromium (scripts/viewer_test.sh)"
scripts/viewer_test.sh build/release/bin/leapnav

# note: the sanitizer lane is compiled by clang (-Werror), so it is also the second-compiler check:
# it catches what g++ accepts and clang does not, and clang's UBSan checks float-to-int overflow.
step "asan+ubsan build (clang)"
cmake --preset asan -DLEAPNAV_WERROR=ON >/dev/null
cmake --build --preset asan -j "$jobs"

step "asan+ubsan tests"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset asan

step "fuzz build (clang, asan+ubsan, libraries and fuzz targets only)"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs"

step "fuzz (each target ${fuzz_seconds}s, $jobs at a time)"
FUZZ_SKIP_BUILD=1 scripts/fuzz.sh "$fuzz_seconds" "$jobs"

step "tsan build (parallel stages' tests only, no CLI or bench)"
cmake --preset tsan -DLEAPNAV_WERROR=ON >/dev/null
cmake --build --preset tsan -j "$jobs"

# note: the tests that run a stage on several threads (names with thread, determinis, identical
# or batch) from tests/voxel, mesh, jumplinks, ledgelinks, planning, streaming, platformer and capi; see docs/robustness.md.
step "tsan tests (thread and determinism tests)"
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 build/tsan/bin/leapnav_tests \
  -tc="*thread*,*determinis*,*identical*,*batch*"

end_step
step_name=""
echo
echo "== all passed"
