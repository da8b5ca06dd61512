#!/usr/bin/env bash
# Builds the Python module `leapnav` (build/release/python) and makes `import leapnav` work in the
# `python3` on PATH and in Debian's /usr/bin/python3: a leapnav.pth in each interpreter's
# site-packages names the module's folder. An interpreter without numpy (a pyenv or venv Python of
# the same version as Debian's) also gets Debian's /usr/lib/python3/dist-packages, for the numpy
# that scripts/setup.sh installed. Usage: scripts/python_setup.sh [build dir, default build/release]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
if [[ ! -f "$build/CMakeCache.txt" ]]; then cmake --preset release >/dev/null; fi
cmake --build "$build" -j 2 --target leapnav_python
module_dir=$(cd "$build/python" && pwd)
debian_version=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
declare -A done=()
for py in python3 /usr/bin/python3; do
  exe=$(command -v "$py") || continue
  real=$("$exe" -c 'import sys; print(sys.executable)')
  [[ -n "${done[$real]:-}" ]] && continue
  done[$real]=1
  version=$("$exe" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  if [[ "$version" != "$debian_version" ]]; then
    echo "python_setup: skipping $real (Python $version; the module is built for $debian_version)"
    continue
  fi
  site=$("$exe" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  mkdir -p "$site"
  {
    echo "$module_dir"
    if ! "$exe" -c 'import numpy' 2>/dev/null; then echo "/usr/lib/python3/dist-packages"; fi
  } >"$site/leapnav.pth"
  "$exe" -c 'import leapnav, numpy' && echo "python_setup: import leapnav works in $real"
done
