import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJson from 'fast-json-stringify';
import { z } from 'zod';

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
 * Responses are written by fast-json-stringify from each route's zod response schema (as
 * JSON Schema): only declared fields leave the process, as with zod's own serializer, at a
 * third of the cost. The handlers' return types are checked against the same schemas at
 * compile time by the type provider, which is what zod's run-time check caught.
 *
 * A route's serializer is compiled when the route first answers with that status, not when the
 * app starts: converting a zod schema to JSON Schema was a third of building the app (about
 * 80 ms, paid again by every app a test file builds, for routes it mostly never calls). That
 * every response schema compiles is a test of its own (`compileSerializer` over the route table).
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) => {
  const ready = compiled.get(schema);
  if (ready) return ready;
  let serialize: ((data: unknown) => string) | undefined;
  return (data: unknown) => (serialize ??= compileSerializer(schema))(data);
};

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
      serialize = fastJson(JSON.parse(jsonSchema) as Parameters<typeof fastJson>[0]);
      byJsonSchema.set(jsonSchema, serialize);
    }
    compiled.set(schema, serialize);
  }
  return serialize;
}

const compiled = new WeakMap<z.ZodType, (data: unknown) => string>();
const byJsonSchema = new Map<string, (data: unknown) => string>();
