#!/usr/bin/env bash
# Quick start: installs what virtgate needs (Node 24 if the machine's node is older, the npm
# dependencies, the compiled CLI), then runs `virtgate check` on this machine.
# Extra arguments go to `virtgate check`, e.g. `bash scripts/quickstart.sh --json`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node24.sh
if [[ ! -d node_modules || package-lock.json -nt node_modules/.package-lock.json ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
# -x, not -f: a build from before the bin was made executable needs redoing for npx to run it.
[[ -x dist/cli/main.js ]] || npm run --silent build
if ! command -v virt-host-validate >/dev/null 2>&1; then
  echo "note: virt-host-validate is not installed; virtgate's native checks run without it (apt-get install libvirt-clients adds it)." >&2
fi
echo "+ npx virtgate check $*" >&2
exec npx --no-install virtgate check "$@"
