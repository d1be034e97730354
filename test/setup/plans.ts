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
