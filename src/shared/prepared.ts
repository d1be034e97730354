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
  client: { query(config: object, values: unknown[]): Promise<{ rows: unknown[][]; fields: Array<{ name: string }> }> };
}

type RowBuilder = (values: unknown[]) => Record<string, unknown>;

/**
 * A row's object from its values in column order, as an object literal of its own per column list:
 * `{"id": r[0], "svgIcon": r[1], ...}`. The names are the statement's column labels (our SQL's
 * aliases, as PostgreSQL describes them), written as JSON strings, so no name can be more than a
 * key. A list with `__proto__` (which a literal would take for the prototype) is built entry by entry.
 */
const builders = new Map<string, RowBuilder>();
function rowBuilder(names: string[]): RowBuilder {
  const key = names.join('\0');
  let build = builders.get(key);
  if (!build) {
    build = names.includes('__proto__')
      ? (r) => Object.fromEntries(names.map((name, i) => [name, r[i]]))
      : (new Function('r', `return {${names.map((name, i) => `${JSON.stringify(name)}: r[${i}]`).join(', ')}};`) as RowBuilder);
    builders.set(key, build);
  }
  return build;
}

/** Per statement: its config with rows as arrays, and the builder of its rows (known from its first result). */
interface ArrayPlan {
  config: object;
  build?: RowBuilder;
}

/**
 * A query config whose fields are its prototype's, none its own. pg copies the config of every
 * query (so as not to write `values` into the caller's object) by copying its own properties'
 * descriptors onto a new object of the same prototype: 1.8 µs for a config's four fields, 0.1
 * for none, and the copy reads them all the same through the prototype.
 */
const inheritedConfig = (fields: object): object => Object.create(fields) as object;
const arrayPlans = new WeakMap<object, ArrayPlan>();

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
 * async function and three promises more per read. Its rows come as arrays and become objects in
 * a builder of the statement's own: pg makes an object row by storing each field under its name,
 * one store instruction for every shape of row in the process, which the app's hundreds of
 * statements make megamorphic (a page of 21 rows and 7 columns: 51.2 µs of the driver's CPU as
 * objects, 48.3 as arrays built into the same objects, with 60 other shapes read before).
 */
export const rowsAsSelected = <Row>(statement: Prepared<Row>, params: Record<string, unknown>): Promise<Row[]> => {
  if (statement instanceof NodePgPreparedQuery) {
    const pgStatement = statement as unknown as NodePgStatement;
    const values = fillPlaceholders(pgStatement.params, params);
    let plan = arrayPlans.get(statement);
    if (!plan) arrayPlans.set(statement, (plan = { config: inheritedConfig({ ...pgStatement.rawQueryConfig, rowMode: 'array' }) }));
    return pgStatement.client.query(plan.config, values).then(
      (result) => result.rows.map((plan.build ??= rowBuilder(result.fields.map((f) => f.name)))),
      (err: unknown) => {
        throw new DrizzleQueryError(pgStatement.rawQueryConfig.text, values, err as Error);
      },
    ) as Promise<Row[]>;
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
