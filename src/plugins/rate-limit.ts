import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../shared/errors.js';

export interface RateLimitOptions {
  max: number;
  /** The bucket a request counts against (key id, token subject, IP). */
  keyGenerator: (req: FastifyRequest) => string;
  redis?: Redis | undefined;
  /** Separate counters per interface, so that one tree's traffic does not drain another's. */
  namespace: string;
}

/**
 * Registers @fastify/rate-limit inside one interface tree. It runs after that tree's
 * auth hook, so Backoffice and Reader calls count per key or token subject, not per IP.
 */
export async function applyRateLimit(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max: options.max,
    timeWindow: 60_000,
    keyGenerator: options.keyGenerator,
    nameSpace: `mps-rl-${options.namespace}-`,
    ...(options.redis && { redis: options.redis }),
    // A Redis outage must not take the API down with it.
    skipOnError: true,
    enableDraftSpec: true,
    errorResponseBuilder: (_req, context) =>
      new AppError(429, 'rate_limited', `rate limit of ${context.max} requests a minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s`),
  });
}
