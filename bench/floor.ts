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
  readerFirstPage: CapturedQuery;
  /** The id byId was captured with; each request puts its own id in that parameter. */
  capturedId: string;
}

type Row = Record<string, unknown>;
interface LocaleJson {
  id: string;
  locale: string;
  name: string;
  description: string | null;
  deletedAt: string | null;
}

// The same wire shapes the app answers, written out by hand: the least work that gives the
// same JSON. Rows carry what the app's SQL selects, keyed by its aliases (timestamps already ISO text).
const backoffice = (r: Row) => ({
  id: r.id,
  locales: (r.locales as LocaleJson[]).map((l) => ({
    id: l.id,
    locale: l.locale,
    name: l.name,
    description: l.description,
    deleted_at: l.deletedAt,
  })),
  svg_icon: r.svgIcon,
  is_archived: r.isArchived,
  inserted_at: r.insertedAt,
  updated_at: r.updatedAt,
  deleted_at: r.deletedAt,
});

const reader = (r: Row) => {
  const locales = r.locales as LocaleJson[];
  const entry = locales.find((l) => l.locale === 'en') ?? locales[0];
  return {
    id: r.id,
    name: entry?.name ?? null,
    description: entry?.description ?? null,
    svg_icon: r.svgIcon,
    meta: { locales: { current: entry?.locale ?? null, available: locales.map((l) => l.locale) } },
    updated_at: r.updatedAt,
  };
};

// An unsigned cursor of the same length class as the app's: base64url of the sort key and id.
const cursor = (r: Row) => Buffer.from(JSON.stringify([r.insertedAt, r.id])).toString('base64url');

const page = (rows: Row[], limit: number, path: string, backwardFrom: boolean) => {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  const first = items[0];
  return {
    items,
    meta: {
      base: path,
      next: rows.length > limit && last ? `${path}&after=${cursor(last)}` : null,
      previous: backwardFrom && first ? `${path}&before=${cursor(first)}` : null,
    },
  };
};

/**
 * The least a server can do for the same answers: no auth, no validation, no signed
 * cursors, no schema serializer. It runs the app's SQL on the app's own connection and
 * writes the same JSON with JSON.stringify. The first and the deep page cost it the same:
 * one prepared statement each, the same mapping.
 */
export function buildFloor(query: RawQuery, queries: FloorQueries): FastifyInstance {
  const idIndex = queries.byId.values.indexOf(queries.capturedId);
  if (idIndex < 0) throw new Error('the by-id statement does not carry the id as a parameter');
  const run = (q: CapturedQuery) => query(q.text, q.values, q.name);

  const floor = Fastify({ logger: false });
  floor.get('/list', async () => {
    const { items, meta } = page(await run(queries.firstPage), 20, '/core/v2/categories?limit=20', false);
    return { data: items.map(backoffice), meta };
  });
  floor.get('/deep', async () => {
    const { items, meta } = page(await run(queries.deepPage), 20, '/core/v2/categories?limit=20', true);
    return { data: items.map(backoffice), meta };
  });
  floor.get('/reader', async () => {
    const { items, meta } = page(await run(queries.readerFirstPage), 20, 'http://127.0.0.1/api/media/v1/categories?limit=20', false);
    return { data: items.map(reader), meta: { ...meta, locales: { current: 'en', available: ['en', 'fr'] } } };
  });
  floor.get<{ Params: { id: string } }>('/categories/:id', async (req, reply) => {
    const values = [...queries.byId.values];
    values[idIndex] = req.params.id;
    const [row] = await query(queries.byId.text, values, queries.byId.name);
    if (!row) return reply.status(404).send({ error: 'not found' });
    return { data: backoffice(row) };
  });
  return floor;
}
