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
