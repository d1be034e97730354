import { type SQL, sql } from 'drizzle-orm';
import { PgDialect, type PgTable, getTableConfig } from 'drizzle-orm/pg-core';
import type { Db } from '../../../src/db/client.js';

const dialect = new PgDialect();
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** A default, an index predicate: SQL without parameters (a value would be a literal in DDL). */
function text(fragment: SQL): string {
  const { sql: rendered, params } = dialect.sqlToQuery(fragment, 'indexes');
  if (params.length > 0) throw new Error(`createTables: ${rendered} has parameters, which DDL cannot take`);
  return rendered;
}

const literal = (value: unknown) => (typeof value === 'string' ? `'${value.replaceAll("'", "''")}'` : String(value));

/** `create table` and its indexes for a drizzle table, as migrations would make it (columns, primary and foreign keys, indexes). */
export function tableDdl(table: PgTable): string[] {
  const c = getTableConfig(table);
  const columns = c.columns.map((col) => {
    const fallback = col.default === undefined ? '' : ` default ${col.default instanceof Object && 'queryChunks' in col.default ? text(col.default as SQL) : literal(col.default)}`;
    return `${quote(col.name)} ${col.getSQLType()}${col.primary ? ' primary key' : ''}${col.notNull && !col.primary ? ' not null' : ''}${fallback}`;
  });
  const keys = c.foreignKeys.map((fk) => {
    const r = fk.reference();
    const names = (list: Array<{ name: string }>) => list.map((x) => quote(x.name)).join(', ');
    return `foreign key (${names(r.columns)}) references ${quote(getTableConfig(r.foreignTable).name)} (${names(r.foreignColumns)})`;
  });
  const indexes = c.indexes.map(({ config: ix }) => {
    // A column, or an expression such as desc(column), rendered without its table's name (DDL names it once).
    const on = (ix.columns as Array<{ name?: string } | SQL>).map((x) => ('name' in x && typeof x.name === 'string' ? quote(x.name) : text(x as SQL).replaceAll(`${quote(c.name)}.`, ''))).join(', ');
    const where = ix.where ? ` where ${text(ix.where)}` : '';
    return `create ${ix.unique ? 'unique ' : ''}index if not exists ${quote(ix.name!)} on ${quote(c.name)} (${on})${where}`;
  });
  return [`create table if not exists ${quote(c.name)} (${[...columns, ...keys].join(', ')})`, ...indexes];
}

/**
 * A test's own tables (a fixture area's), made in the test's database before the app is built, with
 * no migration: `drop()` removes them again (dependants first), so the pooled database goes back
 * to the next file as the migrations left it.
 */
export async function createTables(db: Db, tables: readonly PgTable[]): Promise<{ drop: () => Promise<void> }> {
  for (const table of tables) for (const statement of tableDdl(table)) await db.execute(sql.raw(statement));
  return {
    drop: async () => {
      for (const table of [...tables].reverse()) await db.execute(sql.raw(`drop table if exists ${quote(getTableConfig(table).name)}`));
    },
  };
}
