#!/usr/bin/env bash
# Installs exactly the Debian packages leapnav needs to build, test, benchmark and draw.
# Idempotent and quick when everything is present (only missing packages are installed).
set -euo pipefail

packages=(
  g++ cmake ninja-build            # toolchain
  clang clang-format clang-tidy    # fuzzing (libFuzzer), formatting and lint
  libclang-rt-14-dev               # clang's sanitizer and libFuzzer runtimes
  libboost-dev                     # Boost.Geometry (rtree) and Boost.Graph (header-only parts)
  libtbb-dev                       # oneTBB, behind core/parallel
  doctest-dev                      # tests
  libcli11-dev                     # the leapnav command's argument parsing
  nlohmann-json3-dev               # configuration files, stats and exports
  libtinygltf-dev                  # binary glTF export (header-only use)
  librsvg2-bin                     # rsvg-convert, for `leapnav render --png`
  pybind11-dev python3-dev         # the Python module (scripts/python_setup.sh makes it importable)
  python3-numpy python3-pytest     # its arrays and its tests
  python3-matplotlib               # python/examples/usefulness.py
)

missing=()
for p in "${packages[@]}"; do
  [[ "$p" == \#* ]] && continue
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "setup: done"
