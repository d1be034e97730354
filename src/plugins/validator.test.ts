import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validatorCompiler } from './validator.js';

describe('the request validator', () => {
  const app = Fastify();
  const seen: Array<{ merged: boolean; headers: Record<string, unknown>; query: unknown }> = [];
  beforeAll(async () => {
    app.setValidatorCompiler(validatorCompiler);
    const headers = z.object({ 'x-media': z.uuid(), 'x-mode': z.enum(['a', 'b']).default('a'), 'x-count': z.string().transform(Number).optional() });
    app.get('/things', { schema: { headers, querystring: z.object({ limit: z.coerce.number().int().max(10).default(5) }) } }, (req) => {
      seen.push({ merged: req.headers !== req.raw.headers, headers: { ...req.headers }, query: req.query });
      return {};
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const media = '0191aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee';

  it('leaves headers the schema kept as they came unwritten: req.headers stays the request\'s own object', async () => {
    const res = await app.inject({ url: '/things?limit=3', headers: { 'x-media': media, 'x-mode': 'b', 'x-other': 'kept' } });
    expect(res.statusCode).toBe(200);
    const last = seen.at(-1)!;
    expect(last.merged).toBe(false);
    expect(last.headers).toMatchObject({ 'x-media': media, 'x-mode': 'b', 'x-other': 'kept' });
    // Other parts are written back as parsed, as before.
    expect(last.query).toEqual({ limit: 3 });
  });

  it('writes back headers the schema changed (a default, a transform), read merged with the rest', async () => {
    expect((await app.inject({ url: '/things', headers: { 'x-media': media, 'x-other': 'kept' } })).statusCode).toBe(200);
    expect(seen.at(-1)).toMatchObject({ merged: true, headers: { 'x-media': media, 'x-mode': 'a', 'x-other': 'kept' }, query: { limit: 5 } });
    expect((await app.inject({ url: '/things', headers: { 'x-media': media, 'x-mode': 'b', 'x-count': '7' } })).statusCode).toBe(200);
    expect(seen.at(-1)).toMatchObject({ merged: true, headers: { 'x-mode': 'b', 'x-count': 7 } });
  });

  it('refuses invalid headers as before', async () => {
    const count = seen.length;
    const res = await app.inject({ url: '/things', headers: { 'x-media': 'not-a-uuid' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/x-media/);
    expect((await app.inject({ url: '/things', headers: { 'x-media': media, 'x-mode': 'c' } })).statusCode).toBe(400);
    expect(seen.length).toBe(count);
  });
});
