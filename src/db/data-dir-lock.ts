import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Another process holds the data directory: the one line start-up prints. */
export class DataDirLockedError extends Error {}

interface Holder {
  pid: number;
  host: string;
}

export interface DataDirLock {
  /** Removes the lock file if it is still this process's. */
  release(): void;
}

// A lock file just created by another process may not hold its content yet.
const FRESH_MS = 2_000;

function readHolder(file: string): Holder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
    return Number.isInteger(parsed.pid) && typeof parsed.host === 'string' ? { pid: parsed.pid!, host: parsed.host } : undefined;
  } catch {
    return undefined;
  }
}

/** Lock files this process holds: opening the same directory twice in one process is refused too. */
const held = new Set<string>();

/** Whether the process named in a lock file on this host still runs (a reused pid of another program does not count). */
function running(pid: number, file: string): boolean {
  // Our own pid on a file we do not hold: a leftover of a container restarted with the same pid.
  if (pid === process.pid) return held.has(file);
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return true; // no /proc: the pid alone decides
  }
}

/**
 * PGlite is one process's database: a second process opening the same directory would corrupt
 * it. `file` records the holder's pid and host; a lock whose process is gone is stale and taken
 * over. A lock from another host (a shared volume) cannot be checked and is respected.
 */
export function lockDataDir(dir: string, file = `${dir}.lock`): DataDirLock {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, `${JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() })}\n`, { flag: 'wx' });
      held.add(file);
      const release = () => {
        if (!held.delete(file)) return;
        if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
        process.off('exit', release);
      };
      // An exit on a start-up error, or process.exit anywhere, leaves no lock behind.
      process.on('exit', release);
      return { release };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(file);
    if (!holder) {
      let age = Infinity;
      try {
        age = Date.now() - statSync(file).mtimeMs;
      } catch {
        continue; // gone meanwhile
      }
      if (age < FRESH_MS) throw new DataDirLockedError(`the data directory ${dir} is being opened by another process (lock file ${file})`);
    } else if (holder.host !== hostname()) {
      throw new DataDirLockedError(
        `the data directory ${dir} is in use by process ${holder.pid} on host ${holder.host}; if that process is gone, delete ${file}`,
      );
    } else if (running(holder.pid, file)) {
      throw new DataDirLockedError(
        `the data directory ${dir} is in use by process ${holder.pid} (lock file ${file}); stop it, or set DATA_DIR to another directory`,
      );
    }
    rmSync(file, { force: true }); // stale: its process is gone
  }
  throw new DataDirLockedError(`could not lock the data directory ${dir} (lock file ${file})`);
}
