import type pg from 'pg';
import type { Database } from '../../src/db/client.js';

// Query plans on PostgreSQL (the query-plan tests): the nodes of `explain (analyze, format json)`.

/** Plans are PostgreSQL's; PGlite is the same planner but not what production runs. */
export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

export interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  Alias?: string;
  Filter?: string;
  'Actual Rows'?: number;
  'Group Key'?: string[];
  'Actual Loops'?: number;
  'Sort Method'?: string;
  'Sort Space Type'?: string;
  Plans?: PlanNode[];
}

/** Every node of a plan, depth first. */
export const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

/** The nodes of a statement's analysed plan, run on a connection of its own with the session settings given. */
export async function explainNodes(database: Database, text: string, values: unknown[], settings: string[] = []): Promise<PlanNode[]> {
  const client = await database.pool!.connect();
  try {
    for (const setting of settings) await client.query(setting);
    const res = await client.query(`explain (analyze, format json) ${text}`, values);
    return nodes((res.rows[0] as { 'QUERY PLAN': Array<{ Plan: PlanNode }> })['QUERY PLAN'][0]!.Plan);
  } finally {
    client.release();
  }
}

/** A statement the app sent, as the plan tests explain it again. */
export interface CapturedStatement {
  text: string;
  values: unknown[];
}

/**
 * Records in `into` the statements the app sends through `pool` whose text matches `pattern`, with
 * their values, until `stop()`. The app's statements are query configs or query objects (a
 * prepared read's carries its values itself); the test's own string queries (`explain ...`) are not
 * recorded.
 */
export function captureStatements(pool: pg.Pool, pattern: RegExp, into: CapturedStatement[] = []): { captured: CapturedStatement[]; stop: () => void } {
  const original = pool.query;
  pool.query = function (this: pg.Pool, ...args: unknown[]) {
    const [config, values] = args as [{ text?: unknown; values?: unknown[] } | string | null | undefined, unknown];
    if (typeof config === 'object' && config && typeof config.text === 'string' && pattern.test(config.text)) {
      into.push({ text: config.text, values: (Array.isArray(values) ? values : config.values) ?? [] });
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pool.query;
  return { captured: into, stop: () => void (pool.query = original) };
}

/** A plan's top-level output: its root node, and whether it compiled with JIT (PostgreSQL reports a `JIT` entry then). */
interface ExplainOutput {
  Plan: PlanNode;
  JIT?: unknown;
}

/** The PGlite instance behind a database (Drizzle keeps its driver as `$client`). */
const pgliteOf = (database: Database) =>
  (database.db as unknown as { $client: { query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }> } }).$client;

/**
 * A statement's analysed plan on either database (PostgreSQL: a pool connection of its own, with
 * the pool's session settings; PGlite: its one session): its nodes, whether it used JIT and
 * whether a sort spilled to disk.
 */
export async function explainPlan(database: Database, text: string, values: unknown[]): Promise<{ nodes: PlanNode[]; jit: boolean; spilled: boolean }> {
  const sql = `explain (analyze, format json) ${text}`;
  let raw: unknown;
  if (database.pool) {
    raw = (await database.pool.query(sql, values)).rows[0]!['QUERY PLAN'];
  } else {
    raw = (await pgliteOf(database).query(sql, values)).rows[0]!['QUERY PLAN'];
  }
  const [output] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as ExplainOutput[];
  const all = nodes(output!.Plan);
  const spilled = all.some((n) => n['Sort Space Type'] === 'Disk' || /external/.test(n['Sort Method'] ?? ''));
  return { nodes: all, jit: output!.JIT !== undefined, spilled };
}

/**
 * Records in `into` the statements the app sends (on either database) whose text matches
 * `pattern`, with their values, until `stop()`.
 */
export function captureAppStatements(database: Database, pattern: RegExp, into: CapturedStatement[] = []): { captured: CapturedStatement[]; stop: () => void } {
  if (database.pool) return captureStatements(database.pool, pattern, into);
  const client = pgliteOf(database);
  const original = client.query;
  client.query = function (this: unknown, text: string, values?: unknown[], ...rest: unknown[]) {
    if (typeof text === 'string' && pattern.test(text) && !/^explain/i.test(text)) into.push({ text, values: values ?? [] });
    return (original as (...a: unknown[]) => Promise<{ rows: Array<Record<string, unknown>> }>).call(this, text, values, ...rest);
  } as typeof client.query;
  return { captured: into, stop: () => void (client.query = original) };
}
