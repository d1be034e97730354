import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type App, buildApp } from '../../src/app.js';
import type { Database } from '../../src/db/client.js';
import { type TestContext, createTestApp, testConfig } from '../setup/app.js';

// The zod schemas each interface route declares, to hold the document's examples against.
// The schemas each interface route declared, as the route table recorded them.
const declaredIn = (app: App) => new Map(app.routeTable.map((r) => [`${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`, r.schema]));

type Header = { $ref?: string };
type Response = { description?: string; headers?: Record<string, Header>; content?: Record<string, unknown> };
type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  deprecated?: boolean;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in: string; name: string; schema: { type?: string } }>;
  requestBody?: { content: Record<string, { schema?: unknown; example?: unknown }> };
  responses: Record<string, Response>;
};
type Doc = {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
};

let ctx: TestContext;
let doc: Doc;
const operations: Array<{ where: string; path: string; method: string; op: Operation }> = [];

beforeAll(async () => {
  ctx = await createTestApp();
  doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) operations.push({ where: `${method.toUpperCase()} ${path}`, path, method, op });
  }
});
afterAll(() => ctx.close());

const headerNames = (response: Response) => Object.keys(response.headers ?? {});

describe('the OpenAPI document', () => {
  it('gives every operation an operationId, a summary, a tag, declared security and a described answer for each status', () => {
    expect(operations.length).toBeGreaterThan(50);
    const ids = new Set<string>();
    for (const { where, op } of operations) {
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(ids.has(op.operationId!), `${where}: operationId ${op.operationId} twice`).toBe(false);
      ids.add(op.operationId!);
      expect(op.summary, where).toBeTruthy();
      expect(op.tags?.length, where).toBe(1);
      // Anonymous operations say so with an empty list.
      expect(Array.isArray(op.security), `${where}: security`).toBe(true);
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.description, `${where} ${status}`).toBeTruthy();
        expect(response.description, `${where} ${status}`).not.toBe('Default Response');
      }
    }
    expect(doc.paths['/health']!.get!).toMatchObject({ operationId: 'getHealth', security: [] });
    expect(doc.paths['/ready']!.get!).toMatchObject({ operationId: 'getReadiness', security: [] });
  });

  it('documents the headers each answer can carry, described once as components', () => {
    const headers = doc.components.headers!;
    for (const { where, op } of operations) {
      const rateLimited = '429' in op.responses;
      for (const [status, response] of Object.entries(op.responses)) {
        const names = headerNames(response);
        expect(names, `${where} ${status}`).toContain('X-Request-Id');
        for (const name of names) {
          expect(response.headers![name], `${where} ${status} ${name}`).toEqual({ $ref: `#/components/headers/${name}` });
          expect(headers[name], name).toMatchObject({ description: expect.any(String), schema: expect.any(Object) });
        }
        const limitHeaders = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
        if (rateLimited && (/^2/.test(status) || status === '429')) expect(names, `${where} ${status}`).toEqual(expect.arrayContaining(limitHeaders));
        if (!rateLimited) expect(names, `${where} ${status}`).not.toContain('RateLimit-Limit');
        const idempotent = names.includes('Idempotent-Replayed');
        expect(names.includes('Retry-After'), `${where} ${status}: Retry-After`).toBe(status === '429' || status === '503' || (idempotent && status === '409'));
        expect(names.includes('Deprecation'), `${where} ${status}: Deprecation`).toBe(op.deprecated === true);
        expect(names.includes('Sunset'), `${where} ${status}: Sunset`).toBe(op.deprecated === true);
      }
    }
    // The Public operation that names its Reader successor documents the Link to it.
    const publicRef = doc.paths['/api/public/core/v2/medias/{media_id}/references/{ref}']!.get!;
    expect(headerNames(publicRef.responses['200']!)).toEqual(expect.arrayContaining(['Deprecation', 'Link']));
    expect(headerNames(doc.paths['/core/v2/categories']!.get!.responses['200']!)).not.toContain('Link');
  });

  it('orders its tags by area, Core and Docs first, then the others by name', () => {
    const names = (doc as unknown as { tags: Array<{ name: string }> }).tags.map((t) => t.name);
    const area = (name: string) => name.split(':')[0]!;
    const core = names.filter((n) => area(n) === 'Core');
    const docs = names.filter((n) => area(n) === 'Docs');
    expect(core.length).toBeGreaterThan(0);
    expect(docs.length).toBeGreaterThan(0);
    expect(names.slice(0, core.length + docs.length)).toEqual([...core.sort(), ...docs.sort()]);
    const rest = names.slice(core.length + docs.length);
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b)));
    expect(rest.some((n) => ['Core', 'Docs'].includes(area(n)))).toBe(false);
  });

  it('declares 304 on the reads that carry an ETag, 414 where a path parameter can be too long, 431 and 500 everywhere', () => {
    for (const { where, method, path, op } of operations) {
      if (path === '/health' || path === '/ready') continue;
      const etag = Object.keys(op.responses['200']?.headers ?? {}).includes('ETag');
      expect('304' in op.responses, `${where} 304`).toBe(method === 'get' && etag);
      expect('414' in op.responses, `${where} 414`).toBe(/\{/.test(path));
      expect(op.responses['431'], `${where} 431`).toBeDefined();
      expect(op.responses['500'], `${where} 500`).toBeDefined();
    }
    const read = doc.paths['/core/v2/categories/{id}']!.get!;
    expect(headerNames(read.responses['304']!)).toEqual(expect.arrayContaining(['ETag', 'Cache-Control', 'X-Request-Id']));
    expect(read.responses['304']!.content).toBeUndefined();
  });

  it('names what each operation requires: the permission and the roles that grant it, or the scope', () => {
    const write = doc.paths['/core/v2/categories']!.post! as Operation & { description: string; 'x-required-permission'?: string };
    expect(write['x-required-permission']).toBe('core:write');
    expect(write.description).toContain('Requires the permission `core:write` (roles: `admin`, `editor`).');
    const read = doc.paths['/api/media/v1/categories']!.get! as Operation & { description: string; 'x-required-scope'?: string };
    expect(read['x-required-scope']).toBe('media:read');
    for (const { where, path, op } of operations) {
      const security = op.security?.[0] ?? {};
      const named = op as Operation & { 'x-required-permission'?: string; 'x-required-scope'?: string };
      if ('apiKey' in security) expect(named['x-required-permission'], where).toMatch(/^[a-z-]+:(read|write)$/);
      if ('bearer' in security) expect(named['x-required-scope'], where).toBe(security.bearer![0]);
      if (path.startsWith('/api/public')) expect(named['x-required-permission'] ?? named['x-required-scope'], where).toBeUndefined();
    }
  });

  it('documents 503 with Retry-After on every operation of the API trees, the database being behind each', () => {
    for (const { where, path, op } of operations) {
      if (path === '/health') continue;
      expect(op.responses['503'], where).toBeDefined();
    }
  });

  it('gives every request body an example that the route’s own zod schema accepts', () => {
    const declared = declaredIn(ctx.app);
    let checked = 0;
    for (const { where, op } of operations) {
      if (!op.requestBody) continue;
      const body = declared.get(where)?.body as z.ZodType | undefined;
      expect(body, `${where}: declared body`).toBeDefined();
      for (const [type, media] of Object.entries(op.requestBody.content)) {
        // A multipart form is streamed and checked by its handler; its example is best effort.
        if (type.startsWith('multipart/')) continue;
        expect(media.example, `${where} ${type}: example`).toBeDefined();
        const parsed = body!.safeParse(media.example);
        expect(parsed.success, `${where} ${type}: ${JSON.stringify(media.example)} ${parsed.error?.message}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(15);
    expect(doc.paths['/core/v2/categories']!.post!.requestBody!.content['application/json']!.example).toEqual({
      locales: [{ locale: 'en', name: 'Example name' }],
    });
  });

  it('documents paging limits as integers', () => {
    const limits = operations.flatMap(({ op }) => (op.parameters ?? []).filter((p) => p.in === 'query' && p.name === 'limit'));
    expect(limits.length).toBeGreaterThan(10);
    for (const limit of limits) expect(limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100 });
  });

  it('keeps no component that nothing references', () => {
    const text = JSON.stringify(doc.paths);
    const refs = new Set<string>();
    const queue = [text];
    while (queue.length > 0) {
      for (const [ref] of queue.pop()!.matchAll(/#\/components\/\w+\/[^"]+/g)) {
        if (refs.has(ref)) continue;
        refs.add(ref);
        const [, kind, name] = ref.split('/').slice(1);
        queue.push(JSON.stringify(doc.components[kind!]?.[name!] ?? null));
      }
    }
    for (const [kind, entries] of Object.entries(doc.components)) {
      if (kind === 'securitySchemes') continue;
      for (const name of Object.keys(entries)) expect(refs.has(`#/components/${kind}/${name}`), `${kind}/${name}`).toBe(true);
    }
    const schemes = new Set(operations.flatMap(({ op }) => (op.security ?? []).flatMap((r) => Object.keys(r))));
    expect(Object.keys(doc.components.securitySchemes!).sort()).toEqual([...schemes].sort());
  });

  it('names its server: the host that serves it, or PUBLIC_BASE_URL', async () => {
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    const database: Database = { ...ctx.database, close: async () => {} };
    const app: App = await buildApp({ config: testConfig({ publicBaseUrl: 'https://news.example.org' }), database });
    try {
      const own = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
      expect(own.servers).toEqual([{ url: 'https://news.example.org', description: expect.any(String) }]);
      expect(Object.keys(own.paths)).toEqual(Object.keys(doc.paths));
    } finally {
      await app.close();
    }
  });
});

describe('the typed client', () => {
  it('is shown in the README exactly as clients/typescript/example.ts (which npm run typecheck compiles)', async () => {
    const example = await readFile(new URL('../../clients/typescript/example.ts', import.meta.url), 'utf8');
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${example.trimEnd()}\n\`\`\``);
    expect(example).toContain("get('/core/v2/categories'");
    expect(example).toContain("get('/api/media/v1/categories'");
    expect(example).toContain("post('/core/v2/categories', { locales:");
  });
});
