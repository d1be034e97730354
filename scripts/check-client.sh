#!/usr/bin/env sh
# CI: the committed document and TypeScript client in clients/typescript are what the routes
# make now (regenerated into a temporary directory and compared), the types compile under
# `tsc --strict` without skipLibCheck, and the document passes Redocly's recommended rules with no
# error and no warning.
set -eu
cd "$(dirname "$0")/.."
fresh="$(mktemp -d)"
trap 'rm -rf "$fresh"' EXIT
sh scripts/generate-client.sh "$fresh"
for file in openapi.json schema.d.ts; do
  if ! diff -q "clients/typescript/$file" "$fresh/$file" >/dev/null; then
    diff -u "clients/typescript/$file" "$fresh/$file" | head -40
    echo "clients/typescript/$file is not current: run npm run client:generate and commit it" >&2
    exit 1
  fi
done
# The types as a client compiles them: tsc --strict without skipLibCheck, over the example's typed GET and POST.
npx tsc -p clients/typescript/tsconfig.json
# Warnings fail like errors: fix them, or list an accepted exception with its reason in
# .redocly.lint-ignore.yaml.
npx redocly lint clients/typescript/openapi.json --format=json 2>/dev/null | node -e '
  let text = "";
  process.stdin.on("data", (chunk) => (text += chunk)).on("end", () => {
    const { totals, problems } = JSON.parse(text.slice(text.indexOf("{")));
    for (const p of problems) console.log(`${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer ?? ""}`);
    console.log(`redocly lint: ${totals.errors} errors, ${totals.warnings} warnings, ${totals.ignored} accepted exceptions`);
    if (totals.errors + totals.warnings > 0) process.exit(1);
  });
'
echo "clients/typescript is current"
