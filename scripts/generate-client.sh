#!/usr/bin/env sh
# Writes the OpenAPI document and the TypeScript types generated from it into DIR (default
# clients/typescript): `npm run client:generate`. The document is that of a deployment with
# every optional API on (OPERATOR_API_KEY; the value is a placeholder, never a key anyone uses),
# served from its own host (no PUBLIC_BASE_URL), so that it is the same on every machine.
set -eu
cd "$(dirname "$0")/.."
dir="${1:-clients/typescript}"
mkdir -p "$dir"
# PUBLIC_BASE_URL empty, not unset: the CLI reads .env for what the environment leaves unset.
PUBLIC_BASE_URL= OPERATOR_API_KEY=placeholder-operator-key-for-the-document-only \
  npx tsx src/cli.ts openapi > "$dir/openapi.json"
# Its own lint findings are `npm run client:check`'s business; its output is shown only if it fails.
log="$(mktemp)"
npx tsx scripts/generate-client.ts "$dir/openapi.json" "$dir/schema.d.ts" >"$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; exit 1; }
rm -f "$log"
