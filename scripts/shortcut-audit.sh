#!/bin/sh
# The package's command, the same as `npm run cli --` but from any folder (paths are the caller's).
dir=$(cd "$(dirname "$0")/.." && pwd)
export PGLITE_DIR="${PGLITE_DIR:-$dir/.data/pglite}"
export TSX_TSCONFIG_PATH="$dir/tsconfig.json"
exec node --max-old-space-size="${HEAP_LIMIT_MB:-512}" --conditions=react-server --import "$dir/node_modules/tsx/dist/esm/index.mjs" "$dir/scripts/cli.ts" "$@"
