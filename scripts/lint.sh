#!/usr/bin/env bash
# clang-tidy (checks in .clang-tidy, warnings as errors) over the library, CLI and bench sources,
# using the compile commands of a configured build directory (default build/release).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
[[ -f "$build/compile_commands.json" ]] || { echo "lint: configure $build first" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.cpp' | grep -vE '^tests/')
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p "$build" --quiet --extra-arg=-Wno-unknown-warning-option 2>/dev/null \
  | tee /tmp/leapnav-lint.log
if grep -qE "(warning|error):" /tmp/leapnav-lint.log; then
  echo "lint: clang-tidy reported problems" >&2
  exit 1
fi
echo "lint: ${#files[@]} files clean"
