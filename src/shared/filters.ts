import { type SQL, sql } from 'drizzle-orm';

/** One condition of a listing's filter: its short name, its SQL (placeholder `f_<name>`) and the value. */
export type FilterPart = [name: string, where: SQL, value: unknown];

/**
 * A listing's filter as a prepared statement needs it: the conditions that are on, joined; their
 * placeholder values (`f_<name>`); and a name telling its shape, so that each shape is prepared once.
 * Undefined when no condition is on.
 */
export function namedFilter(parts: FilterPart[]): { name: string; where: SQL; params: Record<string, unknown> } | undefined {
  if (parts.length === 0) return undefined;
  return {
    name: parts.map(([n]) => n).join(''),
    where: sql.join(
      parts.map(([, s]) => s),
      sql` and `,
    ),
    params: Object.fromEntries(parts.map(([n, , v]) => [`f_${n}`, v])),
  };
}
