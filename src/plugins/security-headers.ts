import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

const options: HelmetOptions = {
  // JSON answers need no scripts or frames; /docs sets its own policy.
  contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginResourcePolicy: { policy: 'same-site' },
};

/** The headers helmet sets for these options, computed once: none of them varies per request. */
export function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * helmet's policy on every response. helmet itself rebuilds the same header values on every
 * request (about 5% of a by-id read's CPU); these are static, so they are built at start-up.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    const headers = securityHeaders();
    app.addHook('onRequest', (_req, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: 'security-headers' },
);
