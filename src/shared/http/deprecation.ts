import type { FastifyReply } from 'fastify';

/**
 * The day the Reader API (`/api/media/v1`) superseded the Public one, and the mail events
 * webhook was retired in favour of the provider's signed events: the `Deprecation` date
 * (RFC 9745) of every deprecated operation.
 */
export const DEPRECATED_SINCE = new Date('2026-01-01T00:00:00.000Z');

/**
 * Marks an answer of a deprecated operation (RFC 9745, RFC 8594): `Deprecation` as a structured
 * date (`@` and Unix seconds), `Sunset` as an HTTP date, and the successor's `Link` when there is one.
 */
export function markDeprecated(reply: FastifyReply, sunset: Date, successor?: string): void {
  reply.header('deprecation', `@${Math.floor(DEPRECATED_SINCE.getTime() / 1000)}`);
  reply.header('sunset', sunset.toUTCString());
  if (successor) reply.header('link', `<${successor}>; rel="successor-version"`);
}

/** A successor path template (`/api/media/v1/contents/{id}`) with the request's own params filled in. */
export function successorPath(template: string, params: unknown): string {
  const values = (params ?? {}) as Record<string, unknown>;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name];
    return typeof value === 'string' ? encodeURIComponent(value) : whole;
  });
}
