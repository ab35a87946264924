#!/usr/bin/env bash
# Generate the API clients from an OpenAPI document (a file):
#   scripts/generate-clients.sh DOCUMENT [OUTPUT, default build/clients]
# writes OUTPUT/python (a package, openapi-python-client) and OUTPUT/typescript (@hey-api/openapi-ts
# with zod). Both generators are pinned (requirements-dev.txt, package.json) and reach no network.
# A generator's warning fails the script: it means a part of the document was left out of a client.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
document=$(realpath "$1")
output=$(realpath -m "${2:-$root/build/clients}")
mkdir -p "$output"
failed=0

# openapi-python-client formats its output with ruff, which it finds on the PATH.
PATH="$root/.venv/bin:$PATH" openapi-python-client generate --fail-on-warning \
  --path "$document" --output-path "$output/python" --overwrite --meta pdm || failed=1

# openapi-ts writes its warnings on stderr and still exits 0: anything on stderr fails the script.
# DEBUG (Django's, from .env) would turn on the generator's debug log, whose timing report crashes
# in this version; so would --silent.
warnings=$(mktemp)
trap 'rm -f "$warnings"' EXIT
env -u DEBUG OPENAPI_DOCUMENT="$document" OPENAPI_TS_OUTPUT="$output/typescript" \
  "$root/node_modules/.bin/openapi-ts" --file "$root/clients/openapi-ts.config.mjs" >/dev/null 2>"$warnings" || failed=1
if [ -s "$warnings" ]; then
  echo "@hey-api/openapi-ts warned:" >&2
  cat "$warnings" >&2
  failed=1
fi
exit "$failed"
