import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.js';

const root = mkdtempSync(join(tmpdir(), 'mps-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
const freshDir = () => join(root, `db${n++}`);

// Processes of these tests, each in a group of its own, never outlive them.
const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  children.clear();
});

function holdingProcess(command: string, args: string[]): ChildProcess {
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  children.add(child);
  return child;
}

/** A pid whose process has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

const writeLock = (dir: string, holder: Record<string, unknown>) => writeFileSync(`${dir}.lock`, JSON.stringify(holder));

describe('the PGlite data directory lock', () => {
  it('writes this process id and host beside the directory, and removes the file on release', () => {
    const dir = freshDir();
    const lock = lockDataDir(dir);
    expect(JSON.parse(readFileSync(`${dir}.lock`, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    lock.release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
    lockDataDir(dir).release();
  });

  it('refuses a second lock of the same directory in this process', () => {
    const dir = freshDir();
    const lock = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    lock.release();
  });

  it('refuses, in one line naming the process, while another Node process holds it', async () => {
    const dir = freshDir();
    const holder = holdingProcess(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    await new Promise((resolve) => holder.once('spawn', resolve));
    writeLock(dir, { pid: holder.pid, host: hostname() });
    let message = '';
    try {
      lockDataDir(dir);
    } catch (err) {
      expect(err).toBeInstanceOf(DataDirLockedError);
      message = (err as Error).message;
    }
    expect(message).toBe(`the data directory ${dir} is in use by process ${holder.pid} (lock file ${dir}.lock); stop it, or set DATA_DIR to another directory`);
    expect(message).not.toContain('\n');
  });

  it('takes over a stale lock: its process is gone, or its pid now belongs to another program', async () => {
    const dir = freshDir();
    writeLock(dir, { pid: deadPid(), host: hostname() });
    lockDataDir(dir).release();

    const sleeper = holdingProcess('sleep', ['60']);
    await new Promise((resolve) => sleeper.once('spawn', resolve));
    writeLock(dir, { pid: sleeper.pid, host: hostname() });
    const lock = lockDataDir(dir);
    expect(JSON.parse(readFileSync(`${dir}.lock`, 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('takes over a leftover with its own pid (a restarted container), and one whose content is unreadable and old', () => {
    const dir = freshDir();
    writeLock(dir, { pid: process.pid, host: hostname() });
    lockDataDir(dir).release();

    writeFileSync(`${dir}.lock`, '');
    const past = new Date(Date.now() - 60_000);
    utimesSync(`${dir}.lock`, past, past);
    lockDataDir(dir).release();
  });

  it('respects a lock being written right now and a lock of another host, which it cannot check', () => {
    const dir = freshDir();
    writeFileSync(`${dir}.lock`, '');
    expect(() => lockDataDir(dir)).toThrow(/is being opened by another process/);
    rmSync(`${dir}.lock`);

    writeLock(dir, { pid: 1, host: 'elsewhere' });
    expect(() => lockDataDir(dir)).toThrow(`the data directory ${dir} is in use by process 1 on host elsewhere; if that process is gone, delete ${dir}.lock`);
  });
});
