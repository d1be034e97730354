import type { FastifyReply } from 'fastify';

/**
 * The day the Reader API (`/api/media/v1`) superseded the Public one, and the mail events
 * webhook was retired in favour of the provider's signed events: the `Deprecation` date
 * (RFC 9745) of every deprecated operation.
 */
export const DEPRECATED_SINCE = new Date('2026-01-01T00:00:00.000Z');

/**
 * Marks the answers of deprecated operations (RFC 9745, RFC 8594): `Deprecation` as a structured
 * date (`@` and Unix seconds), `Sunset` as an HTTP date, and the successor's `Link` when there is
 * one. The dates are formatted once, here, not on every answer.
 */
export function deprecationMarker(sunset: Date): (reply: FastifyReply, successor?: string) => void {
  const deprecation = `@${Math.floor(DEPRECATED_SINCE.getTime() / 1000)}`;
  const sunsetHeader = sunset.toUTCString();
  return (reply, successor) => {
    reply.header('deprecation', deprecation);
    reply.header('sunset', sunsetHeader);
    if (successor) reply.header('link', `<${successor}>; rel="successor-version"`);
  };
}

const PARAM = /\{(\w+)\}/;
/** Templates split once into literal text (even places) and param names (odd places). */
const templates = new Map<string, string[]>();

/** A successor path template (`/api/media/v1/contents/{id}`) with the request's own params filled in. */
export function successorPath(template: string, params: unknown): string {
  let parts = templates.get(template);
  if (!parts) templates.set(template, (parts = template.split(PARAM)));
  if (parts.length === 1) return template;
  const values = (params ?? {}) as Record<string, unknown>;
  let path = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const value = values[parts[i]!];
    path += (typeof value === 'string' ? encodeURIComponent(value) : `{${parts[i]}}`) + parts[i + 1]!;
  }
  return path;
}
