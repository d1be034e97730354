import { DrizzleQueryError, fillPlaceholders } from 'drizzle-orm';
import { NodePgPreparedQuery } from 'drizzle-orm/node-postgres';
import { executorOf } from '../db/request-transaction.js';

/** A prepared statement as the repositories use it: run with named parameters. */
export interface Prepared<Row> {
  execute(params: Record<string, unknown>): Promise<Row[]>;
}

/** What a node-postgres prepared query of Drizzle holds: its pg query config, its parameters (placeholders among them) and its client. */
interface NodePgStatement {
  rawQueryConfig: { text: string };
  params: unknown[];
  client: { query(config: object, values: unknown[]): Promise<{ rows: unknown[] }> };
}

const rowsOfResult = (result: { rows: unknown[] }) => result.rows;

/**
 * The driver's rows of a prepared select as they come, without Drizzle's per-field mapping
 * (`mapResultRow` costs a prototype walk per field per row): for selects whose every field
 * is aliased to its key and needs no decoding. Both drivers' prepared queries have `all`;
 * Drizzle's abstract type does not declare it.
 *
 * On node-postgres the statement's own config goes to its client here, as `all` sends it: the
 * same statement name, text, type parsers and parameters, and a failure wrapped as Drizzle wraps
 * it (`DrizzleQueryError`, the driver's error its cause), without `all`'s two tracing closures,
 * its logger call and its cache check (an `is()` walk up the cache's prototypes), which are one
 * async function and three promises more per read.
 */
export const rowsAsSelected = <Row>(statement: Prepared<Row>, params: Record<string, unknown>): Promise<Row[]> => {
  if (statement instanceof NodePgPreparedQuery) {
    const pgStatement = statement as unknown as NodePgStatement;
    const values = fillPlaceholders(pgStatement.params, params);
    return pgStatement.client.query(pgStatement.rawQueryConfig, values).then(rowsOfResult, (err: unknown) => {
      throw new DrizzleQueryError(pgStatement.rawQueryConfig.text, values, err as Error);
    }) as Promise<Row[]>;
  }
  return (statement as unknown as { all(params: Record<string, unknown>): Promise<Row[]> }).all(params);
};

/**
 * Hot queries are built once per executor and key instead of on every request (Drizzle
 * spends tens of microseconds building SQL; PostgreSQL then also plans a named statement
 * once per connection). Executors are held weakly, so a transaction's statements go with it
 * (a request transaction's too: the `transactional` handle stands for the executor it runs on now).
 * `get` then `set` on a miss, so that a hit allocates nothing (not even a builder closure).
 */
export class StatementCache {
  private readonly byExecutor = new WeakMap<object, Map<string, Prepared<unknown>>>();

  get<Row>(executor: object, key: string): Prepared<Row> | undefined {
    return this.byExecutor.get(executorOf(executor))?.get(key) as Prepared<Row> | undefined;
  }

  set<Row>(executor: object, key: string, statement: Prepared<Row>): Prepared<Row> {
    const on = executorOf(executor);
    let statements = this.byExecutor.get(on);
    if (!statements) this.byExecutor.set(on, (statements = new Map()));
    statements.set(key, statement as Prepared<unknown>);
    return statement;
  }
}
