/**
 * An idempotent create over a unique key: `insert` writes the row unless one with the same
 * key exists (ON CONFLICT DO NOTHING, answering undefined), then `find` reads that one. A
 * concurrent delete can slip between the two statements; then the insert is tried again.
 * `created` tells a new row (201) from an existing one (200).
 *
 * ```ts
 * const { row, created } = await insertOrFind(
 *   () => repo.insertIfAbsent(db, key),
 *   () => repo.findLive(db, key),
 * );
 * ```
 */
export async function insertOrFind<Row>(
  insert: () => Promise<Row | undefined>,
  find: () => Promise<Row | undefined>,
  attempts = 3,
): Promise<{ row: Row; created: boolean }> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const inserted = await insert();
    if (inserted) return { row: inserted, created: true };
    const existing = await find();
    if (existing) return { row: existing, created: false };
  }
  throw new Error('the record kept changing under concurrent writes');
}
