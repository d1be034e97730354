import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.js';

/**
 * Runs `work` while the audit log refuses the entry of `operationId`: a Backoffice write and its
 * entry commit together, so the write must leave nothing behind. A service that wrote beside the
 * request's transaction (its own database handle) would leave its rows.
 */
export async function withAuditRefused<T>(db: Db, operationId: string, work: () => Promise<T>): Promise<T> {
  await db.execute(
    sql.raw(`create or replace function audit_refuse_operation() returns trigger language plpgsql as $$
      begin if new.operation_id = '${operationId.replace(/'/g, "''")}' then raise exception 'refused'; end if; return new; end $$`),
  );
  await db.execute(sql.raw('create trigger audit_refuse_operation before insert on audit_log for each row execute function audit_refuse_operation()'));
  try {
    return await work();
  } finally {
    await db.execute(sql.raw('drop trigger if exists audit_refuse_operation on audit_log'));
    await db.execute(sql.raw('drop function if exists audit_refuse_operation()'));
  }
}
