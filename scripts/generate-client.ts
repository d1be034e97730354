/**
 * clients/typescript/schema.d.ts from the OpenAPI document, with openapi-typescript's API
 * (`npx tsx scripts/generate-client.ts <openapi.json> <schema.d.ts>`, run by generate-client.sh):
 * - a field with a `default` is required only where the document requires it (in request bodies it
 *   is optional: the service fills it in), not everywhere, as the CLI's default option made it;
 * - `JsonValue`, the one recursive schema, is a recursive type alias: openapi-typescript writes a
 *   recursion as an indexed access into `components`, and through an array that is a type referring
 *   to itself, which `tsc --strict` refuses (TS2502).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '@redocly/openapi-core';
import openapiTS, { COMMENT_HEADER, astToString } from 'openapi-typescript';
import ts from 'typescript';

/** Each recursive component (its input side named `<name>Input`) and the alias it becomes. */
const RECURSIVE: Record<string, string> = {
  JsonValue: 'export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };',
};
const recursiveName = (path: string | undefined) => /^#\/components\/schemas\/(\w+?)(?:Input)?$/.exec(path ?? '')?.[1];

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error('usage: generate-client.ts <openapi.json> <schema.d.ts>');
const document = JSON.parse(await readFile(input, 'utf8')) as { components?: { schemas?: Record<string, unknown> } };
const ast = await openapiTS(pathToFileURL(input), {
  redocly: await loadConfig({ configPath: 'redocly.yaml' }),
  defaultNonNullable: false,
  silent: true,
  transform: (_schema, { path }) => {
    const name = recursiveName(path);
    return name && RECURSIVE[name] ? ts.factory.createTypeReferenceNode(name) : undefined;
  },
});
const named = new Set(Object.keys(document.components?.schemas ?? {}).map((key) => key.replace(/Input$/, '')));
const aliases = Object.entries(RECURSIVE)
  .filter(([name]) => named.has(name))
  .map(([, alias]) => `${alias}\n`)
  .join('');
await writeFile(output, `${COMMENT_HEADER}${aliases}${astToString(ast)}`);
