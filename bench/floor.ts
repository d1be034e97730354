import Fastify, { type FastifyInstance } from 'fastify';
import type { RawQuery } from './database.js';

/** One statement as Drizzle sent it to the driver. */
export interface CapturedQuery {
  text: string;
  values: unknown[];
  /** The prepared statement's name when the app prepared it; the floor prepares it alike. */
  name?: string;
}

type QueryFn = (...args: unknown[]) => unknown;

/**
 * Runs `work` while recording every statement Drizzle hands to `driver.query` (a pg
 * pool or a PGlite instance). The floor then runs exactly that SQL text: nothing is
 * copied by hand, so it cannot drift from the repository.
 */
export async function captureQueries(driver: object, work: () => Promise<unknown>): Promise<CapturedQuery[]> {
  const target = driver as { query: QueryFn };
  const hadOwn = Object.prototype.hasOwnProperty.call(target, 'query');
  const original = target.query;
  const captured: CapturedQuery[] = [];
  target.query = function (this: unknown, ...args: unknown[]) {
    // pg gets a query config ({ text, rowMode, types }); PGlite gets the text itself.
    const [first, values] = args;
    const config = typeof first === 'string' ? { text: first } : (first as { text: string; name?: string; values?: unknown[] });
    const given = Array.isArray(values) ? values : config.values;
    captured.push({ text: config.text, values: Array.isArray(given) ? [...given] : [], ...(config.name && { name: config.name }) });
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    if (hadOwn) target.query = original;
    else delete (target as Partial<typeof target>).query;
  }
  return captured;
}

/** The single statement of `captured` that reads the categories table. */
export function categoriesSelect(captured: CapturedQuery[]): CapturedQuery {
  const selects = captured.filter((q) => /^select\b/i.test(q.text) && /from "categories"/i.test(q.text));
  if (selects.length !== 1) {
    throw new Error(`expected one select on categories, captured ${captured.length} statements: ${captured.map((q) => q.text.slice(0, 60)).join(' | ')}`);
  }
  return selects[0]!;
}

export interface FloorQueries {
  firstPage: CapturedQuery;
  deepPage: CapturedQuery;
  byId: CapturedQuery;
  /** The id byId was captured with; each request puts its own id in that parameter. */
  capturedId: string;
}

/**
 * The least a server can do for the same answers: no auth, no validation, no mapping,
 * no envelope. It runs the app's SQL on the app's own connection and sends the rows.
 */
export function buildFloor(query: RawQuery, queries: FloorQueries): FastifyInstance {
  const idIndex = queries.byId.values.indexOf(queries.capturedId);
  if (idIndex < 0) throw new Error('the by-id statement does not carry the id as a parameter');

  const floor = Fastify({ logger: false });
  floor.get('/list', async () => query(queries.firstPage.text, queries.firstPage.values, queries.firstPage.name));
  floor.get('/deep', async () => query(queries.deepPage.text, queries.deepPage.values, queries.deepPage.name));
  floor.get<{ Params: { id: string } }>('/categories/:id', async (req, reply) => {
    const values = [...queries.byId.values];
    values[idIndex] = req.params.id;
    const [row] = await query(queries.byId.text, values, queries.byId.name);
    if (!row) return reply.status(404).send({ error: 'not found' });
    return row;
  });
  return floor;
}
