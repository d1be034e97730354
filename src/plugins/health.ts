import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import type { Database } from '../db/client.js';

const status = z.object({ status: z.enum(['ok', 'unavailable']) });

/** /health: the process answers. /ready: the database answers too. */
export const healthPlugin = fp<{ database: Database }>(
  async (app: FastifyInstance, { database }) => {
    app.get('/health', { schema: { tags: ['Operations'], summary: 'Liveness', response: { 200: status } } }, async () => ({
      status: 'ok' as const,
    }));
    app.get(
      '/ready',
      { schema: { tags: ['Operations'], summary: 'Readiness: database reachable', response: { 200: status, 503: status } } },
      async (req, reply) => {
        try {
          await database.ping();
          return { status: 'ok' as const };
        } catch (err) {
          req.log.warn({ err: { message: (err as Error).message } }, 'database not reachable');
          return reply.status(503).send({ status: 'unavailable' as const });
        }
      },
    );
  },
  { name: 'health' },
);
