#!/usr/bin/env bash
# Builds the browser viewer that `leapnav view` copies: installs Node.js and npm from Debian when
# they are missing, installs the viewer's npm packages exactly as viewer/package-lock.json pins
# them (three.js, esbuild; the test's puppeteer-core, pngjs and gltf-validator), and bundles
# viewer/src into viewer/dist/index.html and viewer/dist/viewer.js.
set -euo pipefail
cd "$(dirname "$0")/../viewer"

if ! command -v npm >/dev/null 2>&1; then
  echo "viewer: installing nodejs and npm"
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends nodejs npm
fi
# note: the lock file pins every package; `npm ci` installs nothing else
if [[ ! -d node_modules ]] || [[ package-lock.json -nt node_modules/.package-lock.json ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
npm run --silent build
