/**
 * The rows of `db.execute(sql...)`: PGlite's driver answers them as an array, node-postgres as
 * `{ rows }`. Every raw statement reads its rows through this one function.
 */
export const rowsOf = <T = Record<string, unknown>>(result: unknown): T[] =>
  ((Array.isArray(result) ? result : (result as { rows?: T[] } | null | undefined)?.rows) ?? []) as T[];
