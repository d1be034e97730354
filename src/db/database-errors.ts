import { pgErrorCode } from '../shared/errors.js';
import { DataDirLockedError } from './data-dir-lock.js';

const where = (databaseUrl: string) => {
  const url = new URL(databaseUrl);
  return { name: decodeURIComponent(url.pathname.slice(1)) || url.username || 'postgres', host: `${url.hostname}:${url.port || 5432}`, user: url.username };
};

/** A socket error's code, looking through Drizzle's `cause` and net's AggregateError. */
function socketCode(err: unknown, depth = 0): string | undefined {
  if (!err || typeof err !== 'object' || depth > 4) return undefined;
  const { code, cause, errors } = err as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  for (const inner of [cause, ...(Array.isArray(errors) ? errors : [])]) {
    const found = socketCode(inner, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * One line for a database that cannot be opened at start-up (the server, `db migrate`, the CLI),
 * instead of a driver's stack; undefined for anything else.
 */
export function describeDatabaseError(err: unknown, databaseUrl: string | undefined): string | undefined {
  if (err instanceof DataDirLockedError) return err.message;
  if (!databaseUrl) return undefined;
  const { name, host, user } = where(databaseUrl);
  const code = pgErrorCode(err) ?? socketCode(err);
  switch (code) {
    case '3D000':
      return `the database "${name}" does not exist on ${host}; create it first (createdb ${name}, or CREATE DATABASE "${name}";)`;
    case '28P01':
    case '28000':
      return `PostgreSQL on ${host} refused the login of "${user}": ${(err as Error).message}`;
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
      return `cannot reach PostgreSQL at ${host} (${code}); is it running, and is DATABASE_URL right?`;
    default:
      return undefined;
  }
}

/** Any other error in one line: the driver's own message when Drizzle wrapped it with the query text. */
export function oneLine(err: unknown): string {
  const cause = (err as { cause?: unknown } | null)?.cause;
  const message = cause instanceof Error ? cause.message : err instanceof Error ? err.message : String(err);
  return message.replace(/\s+/g, ' ').trim();
}
