import type { FastifyInstance } from 'fastify';
import { oneRequestShape } from './fastify-request-shape.js';
import { nameEveryPlugin } from './fastify-plugin-names.js';

/**
 * Every tweak that reaches into a library's internals lives in this folder, each with a canary
 * test that fails when the library's shape changes (docs/architecture.md, "Library internals"):
 * - fastify-request-shape: one Request/Reply class for every route (V8 keeps the request path monomorphic);
 * - fastify-plugin-names: plugins named up front (Fastify would scan require.cache for each);
 * - pg-described-rows: prepared reads described once per statement, rows built by a shape of their own.
 * The Fastify ones are applied here, once, on the root before any plugin is registered.
 */
export function applyInternals(app: FastifyInstance): void {
  nameEveryPlugin(app as unknown as { register: (...args: never[]) => unknown });
  oneRequestShape(app);
}

export { describedRows } from './pg-described-rows.js';
