/**
 * The categories floor as a process of its own, forked by bench/run.ts on PostgreSQL so that it
 * is measured as the service is (a process of its own, `npm start`): its CPU and its garbage
 * collection are its own, not shared with the bench's harness, seeding and other floors.
 * It reads what to serve from its environment (the database and the captured statements, as
 * JSON), opens a pool as the service's (`createDatabase`, same size and session settings),
 * listens, and sends its port over the IPC channel; it ends when the bench disconnects.
 */
import { createDatabase } from '../src/db/client.js';
import { type FloorQueries, buildFloor } from './floor.js';

/** The environment variable that carries a `FloorServerStart` as JSON. */
export const FLOOR_SERVER_START = 'BENCH_FLOOR_SERVER_START';

export interface FloorServerStart {
  databaseUrl: string;
  queries: FloorQueries;
}

export type FloorServerReply = { ok: true; port: number } | { ok: false; error: string };

async function serve(start: FloorServerStart): Promise<number> {
  const database = await createDatabase({ databaseUrl: start.databaseUrl });
  const pool = database.pool!;
  const floor = buildFloor(
    async (text, values, name) => (await pool.query<Record<string, unknown>>({ text, values: values ?? [], ...(name && { name }) })).rows,
    start.queries,
  );
  // The pool closes after the last request (Fastify's close waits for them).
  floor.addHook('onClose', () => database.close());
  await floor.listen({ host: '127.0.0.1', port: 0 });
  process.on('disconnect', () => void floor.close().finally(() => process.exit(0)));
  const address = floor.server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

// Only as the bench's child (run.ts imports this module for its types and constant).
const start = process.send && process.env[FLOOR_SERVER_START];
if (start) {
  // Ctrl-C reaches the whole process group; the parent decides when this child ends.
  process.on('SIGINT', () => {});
  serve(JSON.parse(start) as FloorServerStart).then(
    (port) => process.send?.({ ok: true, port } satisfies FloorServerReply),
    (err: unknown) => process.send?.({ ok: false, error: err instanceof Error ? err.message : String(err) } satisfies FloorServerReply),
  );
}
