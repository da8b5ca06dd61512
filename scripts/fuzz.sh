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

# seed corpora: the built-in scenes as OBJ text (for the OBJ reader) and navmesh files small
# enough for -max_len (a 10 m floor, with and without jump links over a 2 m gap)
if [[ -x build/release/bin/leapnav ]]; then
  leapnav=build/release/bin/leapnav
  mkdir -p "$out/corpus/fuzz_obj" "$out/corpus/fuzz_navmesh_file" "$out/seeds"
  $leapnav scene demo -o "$out/corpus/fuzz_obj/demo.obj" >/dev/null || true
  $leapnav scene city:1 -o "$out/corpus/fuzz_obj/city1.obj" >/dev/null || true
  printf 'v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nf 1 3 2\nf 1 4 3\n' >"$out/seeds/floor.obj"
  $leapnav build "$out/seeds/floor.obj" -o "$out/corpus/fuzz_navmesh_file/floor.lnav" \
    >/dev/null || true
  $leapnav build builtin:gap:2 --jump C1 --step 8 \
    -o "$out/corpus/fuzz_navmesh_file/gap_links.lnav" >/dev/null || true
  # note: the demo's files (about 270 KB) are past -max_len; libFuzzer would only see their start
  rm -f "$out/corpus/fuzz_navmesh_file/demo.lnav" "$out/corpus/fuzz_navmesh_file/demo_links.lnav"
fi
# fuzz_maps: the first byte picks the reader (0 .3dmap, 1 .3dscen, 2 tile map, 3 platformer
# parameters); one small valid text of each kind
mkdir -p "$out/corpus/fuzz_maps"
printf '\000voxel 5 5 5\n1 1 3\n2 2 2\n' >"$out/corpus/fuzz_maps/map"
printf '\000rev_voxel 3 2 2\n0 0 0\n' >"$out/corpus/fuzz_maps/rev_map"
printf '\001version 1\nt.3dmap\n1 0 3 1 2 3 2.828427 2.828427\n' >"$out/corpus/fuzz_maps/scen"
printf '\002platformer 6 4\n......\n..##..\n......\n######\n' >"$out/corpus/fuzz_maps/tiles"
printf '\003{"g": 30, "collider": [1, 2], "dt": 0.05}' >"$out/corpus/fuzz_maps/params"
# fuzz_build: inputs of 4 to 64 triangles (9 bytes each after a 9-byte configuration) from a
# fixed generator, so that the search starts from whole scenes rather than growing inputs a few
# bytes at a time (a 64-triangle build runs at a few per second under the sanitizers, a small
# one at hundreds)
mkdir -p "$out/corpus/fuzz_build"
for bytes in 45 120 300 600; do
  LC_ALL=C awk -v n="$bytes" 'BEGIN { srand(n); for (i = 0; i < n; i++) printf "%c", int(rand() * 255) + 1 }' \
    >"$out/corpus/fuzz_build/seed$bytes"
done

# per-target options: dictionaries and input sizes
target_options() {
  case "$1" in
    fuzz_obj) echo "-max_len=65536 -dict=tests/fuzz/fuzz_obj.dict" ;;
    fuzz_navmesh_file) echo "-max_len=65536 -dict=tests/fuzz/fuzz_navmesh_file.dict" ;;
    fuzz_build) echo "-max_len=1024 -len_control=0" ;;
    *) echo "-max_len=65536" ;;
  esac
}

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
      -max_total_time="$seconds" $(target_options "$name") -timeout=10 -rss_limit_mb=2048 \
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
    # note: the coverage is the last "cov:" libFuzzer printed (edges of the instrumented code
    # the corpus reaches), ft its features
    printf '%s: %s %s\n' "$name" \
      "$(grep -E "stat::number_of_executed_units|stat::new_units_added" "$out/$name.log" | tr -s ' ' | tr '\n' ' ')" \
      "$(grep -oE "cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*" "$out/$name.log" | tail -1)"
  fi
done
exit $status
