import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { serializerCompiler } from './serializer.js';

const schema = z.object({
  id: z.string(),
  count: z.int(),
  note: z.string().nullable(),
  tags: z.array(z.object({ name: z.string() })),
});

const compile = (verify: boolean) => serializerCompiler({ verify })({ schema, method: 'GET', url: '/things/:id', httpStatus: '200' });

describe('the response serializer', () => {
  afterEach(() => vi.restoreAllMocks());

  it('writes JSON.stringify of the body, in the order the mapper built it, with or without verifying', () => {
    const body = { id: 'a', count: 2, note: null, tags: [{ name: 'x' }] };
    expect(compile(false)(body)).toBe('{"id":"a","count":2,"note":null,"tags":[{"name":"x"}]}');
    expect(compile(true)(body)).toBe('{"id":"a","count":2,"note":null,"tags":[{"name":"x"}]}');
    // Without verifying, production writes the order it was given.
    expect(compile(false)({ note: null, id: 'a', tags: [], count: 2 })).toBe('{"note":null,"id":"a","tags":[],"count":2}');
  });

  it('when verifying, refuses fields written in another order than the schema declares, at any depth', () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const serialize = compile(true);
    expect(() => serialize({ note: null, id: 'a', tags: [], count: 2 })).toThrow(
      'at (the body): fields written as {note, id, tags, count}, declared as {id, count, note, tags}',
    );
    const tags = z.object({ tags: z.array(z.object({ name: z.string(), rank: z.int() })) });
    const nested = serializerCompiler({ verify: true })({ schema: tags, method: 'GET', url: '/t', httpStatus: '200' });
    expect(() => nested({ tags: [{ name: 'x', rank: 1 }, { rank: 2, name: 'y' }] })).toThrow('at .tags.1: fields written as {rank, name}, declared as {name, rank}');
  });

  it('when verifying (tests), refuses a field the schema does not declare, at any depth, naming the route and the place', () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const serialize = compile(true);
    expect(() => serialize({ id: 'a', count: 1, note: null, tags: [], secret_hash: 'h' })).toThrow(
      'GET /things/:id 200: the body is not what its response schema writes, at .secret_hash: not declared',
    );
    expect(() => serialize({ id: 'a', count: 1, note: null, tags: [{ name: 'x', internal: true }] })).toThrow('at .tags.0.internal: not declared');
    expect(stderr).toHaveBeenCalledWith(expect.stringContaining('at .tags.0.internal: not declared'));
    // Without verifying, production writes what it was given: the tests are what keep the mappers exact.
    expect(compile(false)({ id: 'a', count: 1, note: null, tags: [], extra: 1 })).toContain('"extra":1');
  });

  it('when verifying, refuses a value of another type than declared, and a declared field left out', () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const serialize = compile(true);
    // A count read as text (a bigint column) would have been turned into a number by the schema.
    expect(() => serialize({ id: 'a', count: '5', note: null, tags: [] })).toThrow('at .count: "5" written, 5 declared');
    expect(() => serialize({ id: 'a', count: 1, tags: [] })).toThrow(/note/);
  });
});
