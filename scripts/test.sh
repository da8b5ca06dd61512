#!/usr/bin/env bash
# The whole test suite on a fresh machine: install, format and lint checks, Release build + tests,
# ASan+UBSan build + tests, and a consumer project built against the installed CMake package.
# Usage: scripts/test.sh [--quick]   (--quick: Release tests only, no sanitizers/lint/consumer)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
quick=0
[[ "${1:-}" == "--quick" ]] && quick=1

step() { printf '\n== %s\n' "$*"; }
jobs=$(nproc)

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

if ((quick == 1)); then exit 0; fi

step "lint (clang-tidy, warnings as errors)"
scripts/lint.sh build/release

step "consumer project against the installed package"
rm -rf build/install build/consumer
cmake --install build/release --prefix build/install >/dev/null
cmake -S tests/consumer -B build/consumer -G Ninja -DCMAKE_PREFIX_PATH="$root/build/install" >/dev/null
cmake --build build/consumer
build/consumer/consumer

step "asan+ubsan build"
cmake --preset asan -DLEAPNAV_WERROR=ON >/dev/null
cmake --build --preset asan -j "$jobs"

step "asan+ubsan tests"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset asan

step "all passed"
