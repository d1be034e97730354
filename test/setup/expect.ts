import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** ISO 8601 UTC with milliseconds, the one timestamp format on the wire. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** A lowercase hyphenated UUID, as the service writes its ids. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface ErrorBody {
  error: string;
  code: string;
  details?: Array<{ path: string; message: string }>;
}

/**
 * The one error envelope with the expected status (and code): JSON with `error` and a
 * snake_case `code`, `details` of `{path, message}` when present, and no other key.
 */
export function expectError(res: LightMyRequestResponse, status: number, code?: string): ErrorBody {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(Object.keys(body).filter((k) => !['error', 'code', 'details'].includes(k)), res.body).toEqual([]);
  expect(body.error).toEqual(expect.any(String));
  expect(body.code).toMatch(/^[a-z][a-z0-9_]*$/);
  if (code) expect(body.code, res.body).toBe(code);
  if ('details' in body) {
    expect(Array.isArray(body.details)).toBe(true);
    for (const detail of body.details) {
      expect(Object.keys(detail).sort()).toEqual(['message', 'path']);
      expect(detail).toEqual({ path: expect.any(String), message: expect.any(String) });
    }
  }
  return body as ErrorBody;
}
