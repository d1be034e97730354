import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type JsonSchema, bodyExample, exampleOf } from './openapi-examples.js';

const plain = (schema: JsonSchema) => schema;
const of = (schema: JsonSchema, name?: string) => exampleOf(schema, plain, {}, name);

describe('exampleOf', () => {
  it('prefers what the schema declares: examples, example, const, default, then the first non-null enum value', () => {
    expect(of({ type: 'string', examples: ['a'], example: 'b', default: 'c' })).toBe('a');
    expect(of({ type: 'string', example: 'b', default: 'c' })).toBe('b');
    expect(of({ const: 'x' })).toBe('x');
    expect(of({ type: 'integer', default: 20 })).toBe(20);
    expect(of({ enum: [null, 'ios', 'android'] })).toBe('ios');
  });

  it('writes strings after the field name, formats as themselves, within the length bounds', () => {
    expect(of({ type: 'string' }, 'first_name')).toBe('Example first name');
    expect(of({ type: 'string', maxLength: 4 }, 'title')).toBe('Exam');
    expect(of({ type: 'string', format: 'uuid', pattern: '^[0-9a-f-]{36}$' })).toMatch(/^[0-9a-f]{8}-/);
    expect(of({ type: 'string', format: 'email' })).toBe('reader@example.com');
    expect(of({ type: 'string', format: 'date-time' })).toBe('2026-11-21T22:44:08.123Z');
  });

  it('makes a string that matches the pattern, reading as the field name where the pattern lets it', () => {
    const cases: Array<[string, string]> = [
      ['^[a-z0-9][a-z0-9_-]{0,62}$', 'product_key'],
      ['^[a-z]{2,3}(-[A-Z][a-zA-Z]{1,3}|-\\d{3})?$', 'locale'],
      ['^urn:[a-z0-9][a-z0-9-]{0,31}:[a-z0-9][a-z0-9_-]{0,62}:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}$', 'urn'],
      ['^[\\x21-\\x7e]{1,2048}$', 'token'],
      ['^(?:ab|cd)+x?$', 'value'],
      ['^[^\\s]{3}\\d+$', 'code'],
    ];
    for (const [pattern, name] of cases) {
      const value = of({ type: 'string', pattern }, name);
      expect(value, pattern).toMatch(new RegExp(pattern, 'u'));
    }
    expect(of({ type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,62}$' }, 'product_key')).toBe('product-key');
    expect(of({ type: 'string', pattern: '^urn:[a-z]+:[0-9]{2}$' }, 'urn')).toBe('urn:urn:00');
  });

  it('gives up on a pattern it cannot read rather than write one that does not match', () => {
    expect(of({ type: 'string', pattern: '^(?=a)b$' })).toBeUndefined();
    expect(of({ type: 'object', properties: { k: { type: 'string', pattern: '^(?!x).$' } }, required: ['k'] })).toBeUndefined();
  });

  it('takes the bounds of numbers, one item of arrays (or minItems), and the non-null branch of a nullable', () => {
    expect(of({ type: 'integer', minimum: 3, maximum: 9 })).toBe(3);
    expect(of({ type: 'number', exclusiveMinimum: 0 })).toBe(1);
    expect(of({ type: 'integer', maximum: 0 })).toBe(0);
    expect(of({ type: 'array', items: { type: 'boolean' }, minItems: 2 })).toEqual([true, true]);
    expect(of({ anyOf: [{ type: 'null' }, { type: 'string' }] }, 'name')).toBe('Example name');
    expect(of({ type: ['string', 'null'] }, 'name')).toBe('Example name');
  });

  it('fills the required properties of an object, or all of them when none is required or when asked', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'boolean' } }, required: ['a'] };
    expect(of(schema)).toEqual({ a: 1 });
    expect(exampleOf(schema, plain, { all: true })).toEqual({ a: 1, b: true });
    expect(of({ ...schema, required: [] })).toEqual({ a: 1, b: true });
  });

  it('follows references through the resolver it is given', () => {
    const components: Record<string, JsonSchema> = { Name: { type: 'string', examples: ['Politics'] } };
    const resolve = (s: JsonSchema) => (typeof s.$ref === 'string' ? components[s.$ref.split('/').pop()!]! : s);
    expect(exampleOf({ type: 'object', properties: { name: { $ref: '#/components/schemas/Name' } } }, resolve)).toEqual({ name: 'Politics' });
  });
});

describe('bodyExample', () => {
  it('answers an example the zod schema accepts, with the optional fields when a rule across fields needs them', () => {
    const body = z
      .strictObject({ name: z.string().min(1), jwks_uri: z.url().optional(), userinfo_endpoint: z.url().optional() })
      .refine((b) => b.jwks_uri || b.userinfo_endpoint, { message: 'one of them is needed' });
    const example = bodyExample(body);
    expect(body.safeParse(example).success).toBe(true);
    expect(example).toMatchObject({ name: 'Example name', jwks_uri: expect.any(String) });

    const simple = z.strictObject({ locales: z.array(z.strictObject({ locale: z.string().regex(/^[a-z]{2}$/), name: z.string() })) });
    expect(bodyExample(simple)).toEqual({ locales: [{ locale: 'lo', name: 'Example name' }] });
  });

  it('answers nothing when no derived example passes: the schema then needs examples of its own', () => {
    const impossible = z.strictObject({ a: z.string() }).refine(() => false);
    expect(bodyExample(impossible)).toBeUndefined();
    expect(bodyExample(z.strictObject({ a: z.string() }).meta({ examples: [{ a: 'declared' }] }))).toEqual({ a: 'declared' });
  });
});
