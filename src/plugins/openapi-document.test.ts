import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type OperationFacts, finishDocument } from './openapi-document.js';
import { documentedRegistry } from './openapi-registry.js';

const errorRef = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

/** A document as @fastify/swagger leaves it: placeholder descriptions, every registered component. */
function generated() {
  return {
    openapi: '3.1.0',
    paths: {
      '/things': {
        post: {
          operationId: 'createThing',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingCreateInput' } } } },
          responses: { 201: { description: 'Default Response', ...errorRef }, 429: { description: 'Default Response', ...errorRef } },
          security: [{ apiKey: [] }],
        },
      },
      '/old/things': {
        get: {
          operationId: 'oldThings',
          deprecated: true,
          responses: {
            200: { description: 'Default Response', content: { 'application/json': { schema: { $ref: '#/components/schemas/Tree' } } } },
            503: { description: 'Default Response', ...errorRef },
          },
          security: [],
        },
      },
    },
    components: {
      securitySchemes: { apiKey: { type: 'apiKey' }, unused: { type: 'apiKey' } },
      schemas: {
        Error: { type: 'object' },
        ThingCreateInput: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        ThingCreate: { type: 'object' },
        Tree: { type: 'object', properties: { value: { $ref: '#/components/schemas/__shared#/$defs/schema0' } } },
        __shared: { $defs: { schema0: { anyOf: [{ type: 'string' }, { type: 'array', items: { $ref: '#/components/schemas/__shared#/$defs/schema0' } }] } } },
        Orphan: { type: 'string' },
      },
    },
  };
}

describe('finishDocument', () => {
  const facts = new Map<string, OperationFacts>([
    ['oldThings', { successor: '/api/things' }],
    ['createThing', { responseHeaders: ['ETag'] }],
  ]);
  const doc = finishDocument(generated(), { facts }) as ReturnType<typeof generated> & { servers: unknown };
  const post = doc.paths['/things'].post;
  const old = doc.paths['/old/things'].get;

  it('names the server: PUBLIC_BASE_URL, or the host that serves the document', () => {
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    const own = finishDocument(generated(), { facts, publicBaseUrl: 'https://api.example.org' });
    expect(own.servers).toEqual([{ url: 'https://api.example.org', description: expect.any(String) }]);
  });

  it('describes every answer and documents the headers it can carry', () => {
    expect(post.responses[201].description).toBe('Created');
    expect(Object.keys((post.responses[201] as { headers?: object }).headers!)).toEqual([
      'X-Request-Id',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'ETag',
    ]);
    // A header a route declares (config.responseHeaders) is on its successes only.
    expect(Object.keys((post.responses[429] as { headers?: object }).headers!)).toEqual([
      'X-Request-Id',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ]);
    // Not rate limited (no 429), deprecated with a successor.
    expect(Object.keys((old.responses[200] as { headers?: object }).headers!)).toEqual(['X-Request-Id', 'Deprecation', 'Sunset', 'Link']);
    expect(Object.keys((old.responses[503] as { headers?: object }).headers!)).toEqual(['X-Request-Id', 'Retry-After', 'Deprecation', 'Sunset', 'Link']);
  });

  it('gives the body an example made from its schema', () => {
    expect((post.requestBody.content['application/json'] as { example?: unknown }).example).toEqual({ name: 'Example name' });
  });

  it('makes what zod shared among schemas components of their own, reachable by their $refs', () => {
    const schemas = doc.components.schemas as Record<string, unknown>;
    expect(schemas.__shared).toBeUndefined();
    expect(JSON.stringify(doc)).not.toContain('__shared');
    expect(JSON.stringify(schemas.Tree)).toContain('"#/components/schemas/SharedSchema0"');
    expect(JSON.stringify(schemas.SharedSchema0)).toContain('"#/components/schemas/SharedSchema0"');
  });

  it('drops the components and security schemes nothing uses', () => {
    expect(Object.keys(doc.components.schemas).sort()).toEqual(['Error', 'SharedSchema0', 'ThingCreateInput', 'Tree']);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['apiKey']);
    expect(Object.keys((doc.components as { headers?: object }).headers!).sort()).toEqual(
      ['Deprecation', 'ETag', 'Link', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'Sunset', 'X-Request-Id'].sort(),
    );
  });
});

describe('documentedRegistry', () => {
  it('documents a schema named like another one’s input side under <name>Body, and keeps the rest as named', () => {
    const base = z.registry<{ id?: string }>();
    const visual = z.object({ a: z.string() });
    const visualInput = z.object({ b: z.string() });
    const other = z.object({ c: z.string().describe('kept') });
    base.add(visual, { id: 'Visual' }).add(visualInput, { id: 'VisualInput' }).add(other, { id: 'OtherInput' });
    const registry = documentedRegistry(base);
    expect([...registry._idmap.keys()].sort()).toEqual(['OtherInput', 'Visual', 'VisualBody']);
    expect(registry.get(visualInput)?.id).toBe('VisualBody');
  });
});
