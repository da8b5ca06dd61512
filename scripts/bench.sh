#!/usr/bin/env bash
# Builds Release and runs the benchmark suites, writing bench/last_run.csv and the markdown
# tables of bench/RESULTS.md (bench/last_run.md). Arguments are passed to leapnav_bench, e.g.
#   scripts/bench.sh --suite build --repeat 20
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
cmake --preset release >/dev/null
cmake --build --preset release --target leapnav_bench
echo "bench: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
build/release/bin/leapnav_bench --csv bench/last_run.csv "$@"
python3 scripts/results_tables.py bench/last_run.csv > bench/last_run.md
if grep -q ',jump_query_step' bench/last_run.csv; then
  python3 bench/plot_usefulness.py bench/last_run.csv --svg bench/last_run_usefulness.svg \
    >> bench/last_run.md
fi
echo "bench: tables in bench/last_run.md"
