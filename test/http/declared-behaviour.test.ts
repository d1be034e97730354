import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { writeEffect } from '../../src/shared/http/effects.js';
import { ASSOC_KINDS } from '../../src/shared/http/surrogate.js';
import type { RouteEntry } from '../../src/shared/http/route-table.js';
import { type TestContext, createTestApp } from '../setup/app.js';

// What every route does beyond its answer, as clients see it: the webhook event and audit entry of
// a Backoffice write, the Surrogate-Key kinds of a Reader or Public read, and whether a read may go
// to the replica. The snapshot was taken before these became declarations: it must not change.
const ctx: TestContext = await createTestApp();
afterAll(() => ctx.close());

const paramsOf = (url: string) => Object.fromEntries([...url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => [m[1]!, `:${m[1]}`]));

interface JsonSchema {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

/** A schema's JSON Schema with its top level's and `data`'s references resolved (`.meta({ id })` makes them `$defs`). */
const jsonOf = (schema: unknown): JsonSchema | undefined => {
  if (!(schema instanceof z.ZodType)) return undefined;
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  const resolve = (s: JsonSchema | undefined): JsonSchema | undefined => (s?.$ref ? resolve(json.$defs?.[s.$ref.replace('#/$defs/', '')]) : s);
  const top = resolve(json);
  if (!top) return undefined;
  const properties = Object.fromEntries(
    Object.entries(top.properties ?? {}).map(([k, v]) => {
      const field = resolve(v)!;
      const variants = (field.anyOf ?? field.oneOf)?.map((variant) => resolve(variant)!);
      return [k, variants ? { ...field, anyOf: variants } : field];
    }),
  );
  return { ...top, properties };
};

/**
 * Whether a success answer of this status carries one record with an id (`{data: {id, …}}`),
 * every variant of a union (a block's kinds) included: the answer then starts with that id.
 */
const answersRecord = (schema: unknown): boolean => {
  const data = jsonOf(schema)?.properties?.data;
  if (!data) return false;
  if (data.anyOf) return data.anyOf.every((variant) => variant.properties?.id !== undefined);
  return data.properties?.id !== undefined;
};

/** Whether a success answer is a JSON envelope (`{data, …}`): only such a body names its records in a Surrogate-Key. */
const answersData = (schema: unknown): boolean => jsonOf(schema)?.properties?.data !== undefined;

const assocNames = (schema: unknown): string[] => Object.keys(jsonOf(schema)?.properties?.assocs?.properties ?? {}).sort();

function behaviourOf(route: RouteEntry) {
  const out: Record<string, unknown> = {};
  const responses = (route.schema?.response ?? {}) as Record<string, unknown>;
  const successes = Object.keys(responses).map(Number).filter((s) => s >= 200 && s < 300);
  if (route.interface === 'backoffice' && route.method !== 'GET') {
    out.writes = successes.map((status) => {
      const effect = writeEffect(route.record!, {
        method: route.method,
        statusCode: status,
        params: paramsOf(route.url),
        answerId: answersRecord(responses[status]) ? '<answer>' : undefined,
      });
      const emits = route.record!.webhooks !== false && effect.id !== undefined;
      return {
        status,
        event: emits ? `${effect.kind}.${effect.action} ${effect.id}` : null,
        audit: `${effect.kind}.${effect.action} ${effect.id ?? null}`,
      };
    });
  }
  if (route.interface === 'backoffice' && ['PUT', 'PATCH', 'DELETE'].includes(route.method)) out.version = route.version?.read ?? null;
  if ((route.interface === 'reader' || route.interface === 'public') && route.method === 'GET' && answersData(responses[200])) {
    out.surrogate = route.surrogateKind ?? null;
    const assocs = assocNames(responses[200]);
    if (assocs.length > 0) out.assocs = Object.fromEntries(assocs.map((name) => [name, ASSOC_KINDS[name] ?? null]));
  }
  out.replica = route.replica;
  return out;
}

describe('declared behaviour of every route', () => {
  it('webhook events, audit entries, surrogate keys and replica routing are what they were', async () => {
    const table = Object.fromEntries(
      ctx.app.routeTable
        .filter((r) => r.interface !== 'delivery')
        .map((r) => [`${r.method} ${r.url} (${r.operationId})`, behaviourOf(r)] as const)
        .sort(([a], [b]) => a.localeCompare(b)),
    );
    expect(Object.keys(table).length).toBeGreaterThan(390);
    await expect(JSON.stringify(table, null, 2) + '\n').toMatchFileSnapshot('../fixtures/route-behaviour.json');
  });
});
