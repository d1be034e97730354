import { DrizzleQueryError, fillPlaceholders } from 'drizzle-orm';
import { NodePgPreparedQuery } from 'drizzle-orm/node-postgres';
import { createRequire } from 'node:module';
import pg from 'pg';

/**
 * Prepared reads on node-postgres, described once per statement and built into rows of their
 * own shape: it reads Drizzle's prepared query (its pg config, parameters and client) and
 * subclasses pg's Query (its extended-protocol steps). Canaries: pg-described-rows.test.ts (the
 * internals it reads are there) and test/shared/prepared.test.ts (one Describe per statement).
 */

/** What a node-postgres prepared query of Drizzle holds: its pg query config, its parameters (placeholders among them) and its client (a pool, or a transaction's client). */
interface NodePgStatement {
  rawQueryConfig: { name?: string; text: string; types?: unknown };
  params: unknown[];
  client: pg.Pool | pg.ClientBase;
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

type Parser = (text: string) => unknown;

/** A statement's result as PostgreSQL described it once: its fields, their parsers, the builder of its rows. */
interface Description {
  fields: unknown[];
  parsers: Parser[];
  build: RowBuilder;
}

/** Per statement: its config with rows as arrays, and its result's description once one execution got it. */
interface ArrayPlan {
  config: object;
  description?: Description;
}

/**
 * A query config whose fields are its prototype's, none its own. pg copies the config of every
 * query (so as not to write `values` into the caller's object) by copying its own properties'
 * descriptors onto a new object of the same prototype: a config with no own fields makes that copy
 * next to free, and the copy reads them all the same through the prototype.
 */
const inheritedConfig = (fields: object): object => Object.create(fields) as object;
const arrayPlans = new WeakMap<object, ArrayPlan>();
const planOf = (statement: object, pgStatement: NodePgStatement): ArrayPlan => {
  const plan = { config: inheritedConfig({ ...pgStatement.rawQueryConfig, rowMode: 'array' }) };
  arrayPlans.set(statement, plan);
  return plan;
};

/** What of pg 8's Query this subclass uses beyond its declared type (tests pin it: test/shared/prepared.test.ts). */
interface QueryInternals {
  name: string;
  text: string;
  types: unknown;
  values: unknown[];
  portal: string;
  binary: boolean;
  callback?: (err: Error | null, result?: pg.QueryArrayResult) => void;
  _result: { fields: unknown[]; _parsers: Parser[] | undefined };
  _accumulateRows: boolean;
  _canceledDueToError: Error | false;
  hasBeenParsed(connection: PgConnection): boolean;
  _getRows(connection: PgConnection, rows: number | undefined): void;
  handleError(err: Error, connection: PgConnection): void;
}

/** The connection calls the extended protocol needs (pg's Connection, undeclared by its types). */
interface PgConnection {
  parse(message: { text: string; name: string; types: unknown }): void;
  bind(message: object): void;
  close(message: { type: 'S'; name: string }): void;
  sync(): void;
  submittedNamedStatements: Record<string, string>;
}

/** pg's mapping of a JavaScript value to a parameter's text, as its own prepare binds with it. */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (value: unknown) => unknown };

/**
 * A prepared statement's execution that asks for its result's description once per statement,
 * not on every execution. pg sends Describe with every Bind, so PostgreSQL writes a RowDescription
 * before each result and pg parses it, looks a parser up per field and builds an empty row object
 * of the field names, each time (addFields: more of a by-id read's CPU than the row itself). The description of a named statement does not change while the
 * statement exists (PostgreSQL fails the execution, "cached plan must not change result type",
 * rather than answer another shape), and its fields' types are built-in types whose parsers do
 * not depend on the database; so the first execution describes, and later ones, on any connection,
 * send Parse (where the connection lacks the statement), Bind, Execute and Sync only.
 */
class DescribedQuery extends pg.Query {
  constructor(
    private readonly plan: ArrayPlan,
    values: unknown[],
  ) {
    super(plan.config as pg.QueryConfig, values);
  }

  prepare(connection: PgConnection): void {
    const self = this as unknown as QueryInternals;
    const description = this.plan.description;
    if (!description) {
      (pg.Query.prototype as unknown as { prepare(c: PgConnection): void }).prepare.call(this, connection);
      return;
    }
    // pg's own prepare (lib/query.js), without the Describe.
    if (!self.hasBeenParsed(connection)) {
      connection.parse({ text: self.text, name: self.name, types: self.types });
      if (self.name) connection.submittedNamedStatements[self.name] = self.text;
    }
    try {
      connection.bind({ portal: self.portal, statement: self.name, values: self.values, binary: self.binary, valueMapper: prepareValue });
    } catch (err) {
      connection.close({ type: 'S', name: self.name });
      connection.sync();
      self.handleError(err as Error, connection);
      return;
    }
    self._result.fields = description.fields;
    self._result._parsers = description.parsers;
    self._accumulateRows = true;
    self._getRows(connection, undefined);
  }

  handleRowDescription(msg: { fields: Array<{ name: string }> }): void {
    (pg.Query.prototype as unknown as { handleRowDescription(m: unknown): void }).handleRowDescription.call(this, msg);
    const result = (this as unknown as QueryInternals)._result;
    this.plan.description ??= { fields: msg.fields, parsers: result._parsers ?? [], build: rowBuilder(msg.fields.map((f) => f.name)) };
  }

  handleDataRow(msg: { fields: unknown[] }): void {
    const description = this.plan.description;
    // Never parse a row by another shape's parsers: fail this execution and describe the next.
    if (description && msg.fields.length !== description.parsers.length) {
      delete this.plan.description;
      const self = this as unknown as QueryInternals;
      self._canceledDueToError ||= new Error(`prepared statement ${self.name}: the result has ${msg.fields.length} columns, its description ${description.parsers.length}`);
      return;
    }
    (pg.Query.prototype as unknown as { handleDataRow(m: unknown): void }).handleDataRow.call(this, msg);
  }
}

/** Runs `query` on a pool (which checks a client out and back in, and answers a promise) or on a client of its own (a transaction's). */
function submit(client: pg.Pool | pg.ClientBase, query: DescribedQuery): Promise<pg.QueryArrayResult> {
  if (client instanceof pg.Pool) return client.query(query as never) as unknown as Promise<pg.QueryArrayResult>;
  return new Promise((resolve, reject) => {
    (query as unknown as QueryInternals).callback = (err, result) => (err ? reject(err) : resolve(result!));
    client.query(query as never);
  });
}

/**
 * The rows of a node-postgres prepared select (undefined for another driver's): for selects
 * whose every field is aliased to its key and needs no decoding. The statement's own config goes to its client here, as `all` sends it: the
 * same statement name, text, type parsers and parameters, and a failure wrapped as Drizzle wraps
 * it (`DrizzleQueryError`, the driver's error its cause), without `all`'s two tracing closures,
 * its logger call and its cache check (an `is()` walk up the cache's prototypes), which are one
 * async function and three promises more per read. It is described once per statement
 * (DescribedQuery). Its rows come as arrays and become objects in
 * a builder of the statement's own: pg makes an object row by storing each field under its name,
 * one store instruction for every shape of row in the process, which the app's hundreds of
 * statements make megamorphic; a builder per statement keeps its stores to one shape.
 */
export const describedRows = <Row>(statement: unknown, params: Record<string, unknown>): Promise<Row[]> | undefined => {
  if (statement instanceof NodePgPreparedQuery) {
    const pgStatement = statement as unknown as NodePgStatement;
    const values = fillPlaceholders(pgStatement.params, params);
    const plan = arrayPlans.get(statement) ?? planOf(statement, pgStatement);
    return submit(pgStatement.client, new DescribedQuery(plan, values)).then(
      (result) => result.rows.map(plan.description!.build),
      (err: unknown) => {
        throw new DrizzleQueryError(pgStatement.rawQueryConfig.text, values, err as Error);
      },
    ) as Promise<Row[]>;
  }
  return undefined;
};

