import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import type { Database } from '../db/client.js';
import { databaseUnavailable } from './error-handler.js';

const status = z.object({ status: z.enum(['ok', 'unavailable']) });
// The 503 keeps `status` for orchestrators and carries the house envelope beside it.
const unavailable = status.extend({ error: z.string(), code: z.enum(['database_unavailable', 'shutting_down']) });

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * First step of a graceful shutdown: /ready answers 503 from now on, and every answer
     * closes its keep-alive connection, so that closing the server later cuts no request.
     */
    beginShutdown(): void;
  }
}

/** /health: the process answers. /ready: the database answers too, and the process is not shutting down. */
export const healthPlugin = fp<{ database: Database }>(
  async (app: FastifyInstance, { database }) => {
    let shuttingDown = false;
    // Every answer written once shutdown has begun closes its keep-alive connection, whether its
    // request came before the signal or after: its client would otherwise send the next request on
    // a connection about to be closed. Checked as each answer is written (every answer through
    // Fastify passes the root's onSend hooks, errors and 404s included), not by keeping the answers
    // under way in a Set: under load, the Set's backing tables that V8 replaced as entries came and
    // went (old-generation garbage until the next full collection) still pointed at the responses
    // they had held, so every scavenge kept them and what they reference alive, promoting them to
    // the old generation and making each scavenge several times longer under load.
    app.addHook('onSend', (_req, reply, payload, done) => {
      if (shuttingDown) reply.header('connection', 'close');
      done(null, payload);
    });
    app.decorate('beginShutdown', () => {
      if (shuttingDown) return;
      // From now on every answer says `Connection: close`: its client opens a new connection
      // (to another instance) instead of reusing one that is about to be closed.
      shuttingDown = true;
      // An answer whose headers had already gone keeps its connection alive; it now closes after
      // a second of silence instead of Fastify's 72, which would hold the close past the grace period.
      app.server.keepAliveTimeout = 1;
    });

    app.openapiTags.set('Operations', 'Liveness and readiness probes for orchestrators and load balancers; no credentials.');
    app.get(
      '/health',
      { schema: { operationId: 'getHealth', tags: ['Operations'], summary: 'Liveness', security: [], response: { 200: status } } },
      async () => ({ status: 'ok' as const }),
    );
    app.get(
      '/ready',
      {
        schema: {
          operationId: 'getReadiness',
          tags: ['Operations'],
          summary: 'Readiness: database reachable and not shutting down',
          security: [],
          response: { 200: status, 503: unavailable },
        },
      },
      async (req, reply) => {
        if (shuttingDown) {
          return reply
            .status(503)
            .send({ status: 'unavailable' as const, error: 'the service is shutting down', code: 'shutting_down' as const });
        }
        try {
          await database.ping();
          return { status: 'ok' as const };
        } catch (err) {
          req.log.warn({ err: { message: (err as Error).message } }, 'database not reachable');
          const { message, headers } = databaseUnavailable();
          return reply
            .status(503)
            .headers(headers ?? {})
            .send({ status: 'unavailable' as const, error: message, code: 'database_unavailable' as const });
        }
      },
    );
  },
  { name: 'health' },
);
