#!/usr/bin/env bash
# Prints the path of a Node binary of the given version, installing it first from the npm registry
# (the `node-linux-<arch>` package, the only source CI may download from) into .tmp/, where later
# runs reuse it. Used by `npm test` to run the server's API tests on a second Node LTS line.
#   bash scripts/registry-node.sh 24.21.0
set -euo pipefail
cd "$(dirname "$0")/.."
version=$1
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  *) echo "no registry Node package for $(uname -m)" >&2; exit 1 ;;
esac
prefix=".tmp/node-$version"
binary="$prefix/node_modules/node-linux-$arch/bin/node"
if [ ! -x "$binary" ]; then
  echo "Installing Node $version from the npm registry (node-linux-$arch)…" >&2
  rm -rf "$prefix"
  # The package's own install script only links a `node` command: the binary is what we need.
  npm install --prefix "$prefix" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund "node-linux-$arch@$version" >&2
fi
[ "$("$binary" --version)" = "v$version" ] || { echo "$binary is not Node $version" >&2; exit 1; }
echo "$PWD/$binary"
