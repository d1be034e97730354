import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import type fastJson from 'fast-json-stringify';
import { z } from 'zod';
import { onFirstUse } from '../shared/on-first-use.js';

// Only the tests' checking serializer uses it (with Ajv, which it loads): production never does.
const fastJsonStringify = onFirstUse<typeof fastJson>('fast-json-stringify');

// An empty registry: every schema is inlined, so fast-json-stringify needs no $ref resolution.
const inline = z.registry<{ id?: string }>();

type JsonSchema = { [key: string]: unknown };

// Keywords that only validate; a serializer writes what the mapper produced and needs none of them.
const VALIDATION_ONLY = new Set(['pattern', 'format', 'minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems']);

/**
 * The schema as fast-json-stringify writes it fastest. zod renders `x.nullable()` as
 * `anyOf: [x, {type: 'null'}]`, and for an anyOf fast-json-stringify runs Ajv on every value
 * to pick a branch (with the date-time regex, for each timestamp): a nullable of one type is
 * `type: [type, 'null']` instead, which it writes directly.
 */
export function forSerializer(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forSerializer);
  if (!node || typeof node !== 'object') return node;
  const schema = node as JsonSchema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (VALIDATION_ONLY.has(key)) continue;
    // Property names are data here, not keywords.
    out[key] = key === 'properties'
      ? Object.fromEntries(Object.entries(value as JsonSchema).map(([name, s]) => [name, forSerializer(s)]))
      : forSerializer(value);
  }
  const branches = out.anyOf as JsonSchema[] | undefined;
  if (branches?.length === 2) {
    const nullIndex = branches.findIndex((b) => b.type === 'null' && Object.keys(b).length === 1);
    const other = branches[1 - nullIndex];
    if (nullIndex >= 0 && other && typeof other.type === 'string') {
      const { anyOf: _anyOf, ...rest } = out;
      return { ...rest, ...other, type: [other.type, 'null'] };
    }
  }
  return out;
}

/**
 * Responses are written by `JSON.stringify` of what the route's mapper built. Mappers build each
 * wire object field by field, and the handlers' return types are checked against the response
 * schemas at compile time by the type provider; what a type cannot see (a field too many, a
 * number held as a string) the tests see: with `verify` (NODE_ENV=test), every response is also
 * written by fast-json-stringify from the route's zod response schema, which writes only declared
 * fields with their declared types in their declared order, and a body that differs from it (order
 * included) fails the request, naming the route and the first difference. So every response the suite makes is what the schema
 * allows, and production pays none of it.
 *
 * fast-json-stringify had written every response: cheaper than zod, but it builds the body by
 * concatenation, a rope of small strings that the ETag's hash and the socket then flatten.
 * `JSON.stringify` allocates less per request: fewer scavenges, less garbage-collection work on
 * and off the main thread.
 *
 * A route's checking serializer is compiled when the route first answers with that status, not
 * when the app starts: converting a zod schema to JSON Schema was a third of building the app.
 * That every response schema compiles is a test of its own (`compileSerializer` over the route table).
 */
export function serializerCompiler(options: { verify: boolean }): FastifySerializerCompiler<z.ZodType> {
  if (!options.verify) return () => JSON.stringify;
  return ({ schema, method, url, httpStatus }) => {
    let declared: ((data: unknown) => string) | undefined;
    return (data: unknown) => {
      const written = JSON.stringify(data);
      const expected = (declared ??= compileSerializer(schema))(data);
      if (written !== expected) {
        const [w, d] = [JSON.parse(written) as unknown, JSON.parse(expected) as unknown];
        const difference = firstDifference(w, d, '') ?? firstOrderDifference(w, d, '') ?? '(the body): the same fields and values, written differently';
        const message = `${method} ${url} ${httpStatus}: the body is not what its response schema writes, at ${difference}`;
        // Tests run with logging off: said on stderr too, or the test would show only a 500.
        process.stderr.write(`${message}\n`);
        throw new Error(message);
      }
      return written;
    };
  };
}

/** The path of the first place where `written` and `declared` differ (field order aside: `firstOrderDifference`), or undefined. */
function firstDifference(written: unknown, declared: unknown, path: string): string | undefined {
  if (written === declared) return undefined;
  if (typeof written !== 'object' || typeof declared !== 'object' || written === null || declared === null) {
    return `${path || '(the body)'}: ${JSON.stringify(written)} written, ${JSON.stringify(declared)} declared`;
  }
  if (Array.isArray(written) !== Array.isArray(declared)) return `${path || '(the body)'}: an array on one side only`;
  const keys = new Set([...Object.keys(written), ...Object.keys(declared)]);
  for (const key of keys) {
    if (!(key in declared)) return `${path}.${key}: not declared`;
    if (!(key in written)) return `${path}.${key}: declared, not written`;
    const inner = firstDifference((written as Record<string, unknown>)[key], (declared as Record<string, unknown>)[key], `${path}.${key}`);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/**
 * The path of the first object whose fields are written in another order than its schema declares
 * them, or undefined. Order means nothing to JSON, but it is what clients and people reading the
 * answers see: the OpenAPI document's order, as fast-json-stringify wrote every answer before
 * `JSON.stringify` did. Called once the values are known to be the same.
 */
function firstOrderDifference(written: unknown, declared: unknown, path: string): string | undefined {
  if (typeof written !== 'object' || written === null) return undefined;
  const w = written as Record<string, unknown>;
  const d = declared as Record<string, unknown>;
  if (Array.isArray(w)) {
    for (let i = 0; i < w.length; i++) {
      const inner = firstOrderDifference(w[i], (d as unknown as unknown[])[i], `${path}.${i}`);
      if (inner !== undefined) return inner;
    }
    return undefined;
  }
  const [wKeys, dKeys] = [Object.keys(w), Object.keys(d)];
  if (wKeys.join() !== dKeys.join()) return `${path || '(the body)'}: fields written as {${wKeys.join(', ')}}, declared as {${dKeys.join(', ')}}`;
  for (const key of wKeys) {
    const inner = firstOrderDifference(w[key], d[key], `${path}.${key}`);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** The serializer of a response schema: compiled once per schema, and once per JSON Schema in the process. */
export function compileSerializer(schema: z.ZodType): (data: unknown) => string {
  // One compilation per schema: the error envelope is declared on every route, for several statuses.
  let serialize = compiled.get(schema);
  if (!serialize) {
    const jsonSchema = JSON.stringify(forSerializer(z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any', metadata: inline })));
    // Schemas built per route (`dataOf(x)`, a list of x) are new objects in every app, but the same
    // JSON Schema: compiled once per process, which apps built one after another (tests) share.
    serialize = byJsonSchema.get(jsonSchema);
    if (!serialize) {
      serialize = fastJsonStringify()(JSON.parse(jsonSchema) as Parameters<typeof fastJson>[0]);
      byJsonSchema.set(jsonSchema, serialize);
    }
    compiled.set(schema, serialize);
  }
  return serialize;
}

const compiled = new WeakMap<z.ZodType, (data: unknown) => string>();
const byJsonSchema = new Map<string, (data: unknown) => string>();
