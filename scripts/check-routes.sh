#!/usr/bin/env sh
# CI: docs/routes.md is what the routes make now (regenerated into a temporary file and compared).
set -eu
cd "$(dirname "$0")/.."
fresh="$(mktemp)"
trap 'rm -f "$fresh"' EXIT
npx tsx scripts/routes-doc.ts "$fresh" >/dev/null
if ! diff -q docs/routes.md "$fresh" >/dev/null; then
  diff -u docs/routes.md "$fresh" | head -40
  echo "docs/routes.md is not current: run npm run routes:generate and commit it" >&2
  exit 1
fi
echo "docs/routes.md is current"
