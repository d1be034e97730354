import type { IncomingMessage, ServerResponse } from 'node:http';
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
    // Answers under way, so that those still to be written when shutdown begins close their
    // connection too: a client would otherwise send its next request on it while it is closed.
    const underWay = new Set<ServerResponse>();
    function settled(this: ServerResponse) {
      underWay.delete(this);
    }
    // Before Fastify's own listener: an answer made without waiting (every hook and the handler
    // synchronous, as /ready's 503 is) has been sent by the time a later listener runs.
    app.server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      if (shuttingDown) {
        res.setHeader('connection', 'close');
        return;
      }
      underWay.add(res);
      res.on('close', settled);
    });
    app.decorate('beginShutdown', () => {
      if (shuttingDown) return;
      shuttingDown = true;
      // From now on every answer says `Connection: close`: its client opens a new connection
      // (to another instance) instead of reusing one that is about to be closed.
      for (const res of underWay) if (!res.headersSent) res.setHeader('connection', 'close');
      underWay.clear();
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
