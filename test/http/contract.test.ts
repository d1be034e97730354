import { describe, expect, it } from 'vitest';
import { breach, contractOf } from '../setup/contract.js';

// A document as the service serves it, cut down to one operation.
const contract = contractOf({
  paths: {
    '/things/{id}': {
      get: {
        responses: {
          200: {
            headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' }, ETag: { $ref: '#/components/headers/ETag' } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          304: { headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Thing: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } }, required: ['id'], additionalProperties: false },
    },
    headers: { 'X-Request-Id': { required: true }, ETag: {} },
  },
});
const json = { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r1' };
const id = '0193a5c4-2b6e-7d1f-9a3c-5e8f0b1d2c4a';

describe('the contract check of the test kit', () => {
  it('passes an answer the document declares', () => {
    expect(breach(contract, 'GET', '/things/:id', 200, { ...json, etag: '"x"' }, JSON.stringify({ id }))).toBeUndefined();
    expect(breach(contract, 'GET', '/things/:id', 304, { 'x-request-id': 'r1' }, '')).toBeUndefined();
    expect(breach(contract, 'HEAD', '/things/:id', 200, json, '')).toBeUndefined();
  });

  it('names a status the operation does not declare', () => {
    expect(breach(contract, 'GET', '/things/:id', 500, json, '{}')).toBe('status 500 is not declared (declared: 200, 304)');
  });

  it('names the first place where a JSON body leaves its schema, formats included', () => {
    expect(breach(contract, 'GET', '/things/:id', 200, json, JSON.stringify({ id: 'nope' }))).toMatch(/^the body does not match its schema at \/id: must match format "uuid"/);
    expect(breach(contract, 'GET', '/things/:id', 200, json, JSON.stringify({ id, extra: 1 }))).toMatch(/must NOT have additional properties/);
  });

  it('names a body sent where none is declared, or in a media type not declared', () => {
    expect(breach(contract, 'GET', '/things/:id', 304, json, '{}')).toBe('a body (application/json) is sent where none is declared');
    expect(breach(contract, 'GET', '/things/:id', 200, { ...json, 'content-type': 'text/html' }, '<p>')).toMatch(/media type text\/html is not declared/);
  });

  it('names a required header that is missing, and a documented header sent where it is not declared', () => {
    expect(breach(contract, 'GET', '/things/:id', 200, { 'content-type': 'application/json' }, JSON.stringify({ id }))).toBe('the declared header X-Request-Id is missing');
    expect(breach(contract, 'GET', '/things/:id', 304, { 'x-request-id': 'r1', etag: '"x"' }, '')).toBe('the header ETag is sent but not declared for 304');
  });

  it('leaves alone what the document does not name (a route of a test, no route at all)', () => {
    expect(breach(contract, 'GET', '/elsewhere', 418, {}, 'x')).toBeUndefined();
  });
});
