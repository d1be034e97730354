import { describedRows } from '../internals/index.js';

/** A prepared statement as the repositories use it: run with named parameters. */
export interface Prepared<Row> {
  execute(params: Record<string, unknown>): Promise<Row[]>;
}

/**
 * The driver's rows of a prepared select as they come, without Drizzle's per-field mapping
 * (`mapResultRow` costs a prototype walk per field per row): for selects whose every field is
 * aliased to its key and needs no decoding. On node-postgres each statement is described once
 * (src/internals/pg-described-rows.ts); PGlite's prepared query runs as Drizzle runs it (`all`,
 * which both drivers' prepared queries have and Drizzle's abstract type does not declare).
 */
export const rowsAsSelected = <Row>(statement: Prepared<Row>, params: Record<string, unknown>): Promise<Row[]> =>
  describedRows<Row>(statement, params) ?? (statement as unknown as { all(params: Record<string, unknown>): Promise<Row[]> }).all(params);

/**
 * Hot queries are built once per executor and key instead of on every request (Drizzle would
 * build the same SQL text on every call; PostgreSQL then also plans a named statement only
 * once per connection). Executors are held weakly, so a transaction's statements go with it
 * (a request's transaction is the executor its context hands the statements).
 * `get` then `set` on a miss, so that a hit allocates nothing (not even a builder closure).
 */
export class StatementCache {
  private readonly byExecutor = new WeakMap<object, Map<string, Prepared<unknown>>>();

  get<Row>(executor: object, key: string): Prepared<Row> | undefined {
    return this.byExecutor.get(executor)?.get(key) as Prepared<Row> | undefined;
  }

  set<Row>(executor: object, key: string, statement: Prepared<Row>): Prepared<Row> {
    let statements = this.byExecutor.get(executor);
    if (!statements) this.byExecutor.set(executor, (statements = new Map()));
    statements.set(key, statement as Prepared<unknown>);
    return statement;
  }
}
