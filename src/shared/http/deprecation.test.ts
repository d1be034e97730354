import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { deprecationMarker, successorPath } from './deprecation.js';

describe('successorPath', () => {
  it("fills each {param} with the request's value, encoded, and leaves the rest of the path as it is", () => {
    expect(successorPath('/api/media/v1/issues/{id}/sections/{section_id}/contents', { id: 'a b', section_id: 'x/y' })).toBe(
      '/api/media/v1/issues/a%20b/sections/x%2Fy/contents',
    );
    expect(successorPath('/api/media/v1/contents', { id: 'ignored' })).toBe('/api/media/v1/contents');
    expect(successorPath('/api/media/v1/contents/{id}', undefined)).toBe('/api/media/v1/contents/{id}');
    // The same template again (split once, then reused) with other values.
    expect(successorPath('/api/media/v1/contents/{id}', { id: '42' })).toBe('/api/media/v1/contents/42');
  });
});

describe('deprecationMarker', () => {
  it('sets Deprecation (RFC 9745), Sunset (an HTTP date) and the successor Link when there is one', () => {
    const mark = deprecationMarker(new Date('2027-06-30T00:00:00.000Z'));
    const headers: Record<string, string> = {};
    const reply = { header: (name: string, value: string) => (headers[name] = value) } as unknown as FastifyReply;
    mark(reply, '/api/media/v1/contents/1');
    expect(headers).toEqual({
      deprecation: '@1767225600',
      sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
      link: '</api/media/v1/contents/1>; rel="successor-version"',
    });
    delete headers.link;
    mark(reply);
    expect(headers.link).toBeUndefined();
  });
});
