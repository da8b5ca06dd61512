#!/usr/bin/env bash
# Builds the libFuzzer targets (preset fuzz: clang, ASan + UBSan) and runs each for the given
# number of seconds (default 60), `jobs` targets at a time (default: the number of cores), seeded
# from the built-in scenes. A crash leaves its input in build/fuzz/crashes/<target>/ and fails the
# script; crashes become regression tests. FUZZ_SKIP_BUILD=1 skips the build (CI builds first).
# Usage: scripts/fuzz.sh [seconds] [jobs]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
jobs=${2:-$(nproc)}
if [[ "${FUZZ_SKIP_BUILD:-0}" != 1 ]]; then
  scripts/setup.sh >/dev/null
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz -j "$(nproc)"
fi
out=build/fuzz
mkdir -p "$out/corpus" "$out/crashes"

# seed corpora: the built-in scenes as OBJ text (for the OBJ reader) and as navmesh files
if [[ -x build/release/bin/leapnav ]]; then
  mkdir -p "$out/corpus/fuzz_obj"
  build/release/bin/leapnav scene demo -o "$out/corpus/fuzz_obj/demo.obj" >/dev/null || true
  build/release/bin/leapnav scene city:1 -o "$out/corpus/fuzz_obj/city1.obj" >/dev/null || true
  mkdir -p "$out/corpus/fuzz_navmesh_file"
  build/release/bin/leapnav build builtin:demo -o "$out/corpus/fuzz_navmesh_file/demo.lnav" \
    >/dev/null || true
  build/release/bin/leapnav build builtin:demo --jump C1 --step 8 \
    -o "$out/corpus/fuzz_navmesh_file/demo_links.lnav" >/dev/null || true
fi

# note: tests/fuzz/regressions/<target>/ holds inputs that once crashed; libFuzzer runs every
# file of the extra corpus folders first, so a crash that comes back fails the step at once.
regressions_of() {
  [[ -d "tests/fuzz/regressions/$1" ]] && echo "tests/fuzz/regressions/$1"
  return 0
}

run_target() {
  local target=$1 name
  name=$(basename "$target")
  mkdir -p "$out/corpus/$name" "$out/crashes/$name"
  if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 "$target" \
      -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$out/crashes/$name/" -print_final_stats=1 "$out/corpus/$name" \
      $(regressions_of "$name") \
      >"$out/$name.log" 2>&1; then
    echo ok >"$out/$name.status"
  else
    echo failed >"$out/$name.status"
  fi
}

targets=("$out"/bin/fuzz_*)
for ((i = 0; i < ${#targets[@]}; i += jobs)); do
  batch=("${targets[@]:i:jobs}")
  for target in "${batch[@]}"; do
    echo "== fuzz $(basename "$target") for ${seconds}s"
    run_target "$target" &
  done
  wait
done

status=0
for target in "${targets[@]}"; do
  name=$(basename "$target")
  if [[ "$(cat "$out/$name.status")" != ok ]]; then
    echo "fuzz: $name FAILED, see $out/$name.log and $out/crashes/$name/"
    tail -40 "$out/$name.log"
    status=1
  else
    printf '%s: %s\n' "$name" \
      "$(grep -E "stat::number_of_executed_units|stat::new_units_added" "$out/$name.log" | tr -s ' ' | tr '\n' ' ')"
  fi
done
exit $status
