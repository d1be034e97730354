import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { idParams } from '../shared/schemas.js';
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

describe('path parameters that are all uuids', () => {
  const uuidParams = z.object({ advertiser_id: z.uuid(), id: z.uuid().describe('The ad') });
  const compile = (schema: unknown) => validatorCompiler({ schema, httpPart: 'params', method: 'GET', url: '/x' } as never);
  const zodAlone = (schema: z.ZodType) => (data: unknown) => {
    const result = schema.safeParse(data);
    return result.success ? { value: result.data } : { error: true };
  };
  const a = '0191aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee';
  const b = '0191aaaa-bbbb-4ccc-9ddd-000000000001';

  it('accepts what zod accepts, as the very object (no copy), and refuses what zod refuses', () => {
    const validate = compile(uuidParams);
    const ok = { advertiser_id: a, id: b };
    expect(validate(ok)).toEqual({ value: ok });
    expect((validate(ok) as { value: unknown }).value).toBe(ok);
    // The routes' own `/:id` schema takes the same path.
    const byId = { id: a };
    expect((compile(idParams)(byId) as { value: unknown }).value).toBe(byId);
    for (const data of [
      { advertiser_id: a, id: b },
      { advertiser_id: a, id: 'nope' },
      { advertiser_id: a, id: `${b}0` },
      { advertiser_id: a, id: b.replace('-9', '-c') }, // not an RFC 9562 variant: zod's pattern refuses it
      { advertiser_id: a },
      { advertiser_id: a, id: b, other: a },
      { id: 42, advertiser_id: a },
      { advertiser_id: '00000000-0000-0000-0000-000000000000', id: 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'.toLowerCase() },
    ]) {
      const ours = validate(data) as { value?: unknown; error?: unknown };
      expect(ours.error === undefined, JSON.stringify(data)).toBe(zodAlone(uuidParams)(data).error === undefined);
      if (ours.error === undefined) expect(ours.value).toEqual(zodAlone(uuidParams)(data).value);
    }
  });

  it('answers zod\'s own error for a refused value, naming the parameter', () => {
    const route = { schema: uuidParams, httpPart: 'params', method: 'GET', url: '/x' } as never;
    const data = { advertiser_id: a, id: 'nope' };
    const result = compile(uuidParams)(data);
    expect(result).toEqual(zodValidatorCompiler(route)(data));
    expect(JSON.stringify(result)).toMatch(/"instancePath":"\/id"/);
  });

  it('leaves every other params schema to zod: a transform still applies', () => {
    const validate = compile(z.object({ key: z.string().transform((k) => k.toUpperCase()) }));
    expect(validate({ key: 'ab' })).toEqual({ value: { key: 'AB' } });
    const ref = compile(z.object({ ref: z.string().regex(/^[a-z]+:\d+$/) }));
    expect((ref({ ref: 'x' }) as { error?: unknown }).error).toBeDefined();
  });
});
