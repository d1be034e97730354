/**
 * BENCH_PROFILE=<dir>: a CPU profile of each measured run (not its warm-up, the seeding or the
 * start-up), one file per scenario, round and turn (`<scenario>.round<n>.<turn>.cpuprofile`, for
 * Chrome's DevTools or speedscope). The profiler costs CPU itself: figures of a profiled run are not
 * the bench's. BENCH_PROFILE_HEAP=1: allocations instead (sampled every 4 KB, garbage included), for
 * DevTools' Memory tab; BENCH_PROFILE_HEAP=promoted: only those no scavenge collected, what the run
 * moved to the old generation (a request's objects there make every scavenge and full collection
 * dearer).
 *
 * The same profiler runs in this process (the app and floors measured here) and in a server
 * process of its own (the service, the categories floor): bench/profile-hook.ts, preloaded there,
 * starts and stops it on the bench's messages.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import inspector from 'node:inspector/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { messageWith } from './startup.js';

export const PROFILE_DIR = process.env.BENCH_PROFILE || undefined;
const HEAP_MODE = process.env.BENCH_PROFILE_HEAP;

/** A profile's file in BENCH_PROFILE's folder for a scenario's turn. */
export const profileFile = (scenario: string, round: string): string =>
  join(PROFILE_DIR ?? '.', `${scenario.replace(/[^a-z0-9]+/gi, '-')}.round${round}.${HEAP_MODE === '1' || HEAP_MODE === 'promoted' ? 'heapprofile' : 'cpuprofile'}`);

/** Starts and stops the profile of one process: this one, or a server process of its own. */
export interface Profiler {
  start: () => Promise<void>;
  /** Writes the profile since `start` to `file`. */
  stop: (file: string) => Promise<void>;
}

/** The profiler of this process (the bench's own servers; in a server process of its own, the hook's). */
export function profilerOfThisProcess(): Profiler {
  const heap = HEAP_MODE === '1' || HEAP_MODE === 'promoted';
  let session: inspector.Session | undefined;
  return {
    start: async () => {
      session = new inspector.Session();
      session.connect();
      if (heap) {
        await session.post('HeapProfiler.enable');
        await session.post('HeapProfiler.startSampling', {
          samplingInterval: 4096,
          includeObjectsCollectedByMajorGC: true,
          includeObjectsCollectedByMinorGC: HEAP_MODE === '1',
        });
      } else {
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
      }
    },
    stop: async (file) => {
      if (!session) return;
      const profile = heap ? (await session.post('HeapProfiler.stopSampling')).profile : (await session.post('Profiler.stop')).profile;
      session.disconnect();
      session = undefined;
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, JSON.stringify(profile));
    },
  };
}

/** What the bench sends a server process with the hook, and what it answers once done. */
export type ProfileMessage = { profile: 'start' } | { profile: 'stop'; file: string };
export interface ProfileReply {
  profiled: 'started' | 'stopped';
}

/** The profiler of a server process of its own that preloads the hook, over its IPC channel. */
export function remoteProfiler(child: ChildProcess): Profiler {
  const ask = async (message: ProfileMessage) => {
    const replied = messageWith<ProfileReply>(child, 'profiled');
    await new Promise<void>((resolve, reject) => child.send(message, (err) => (err ? reject(err) : resolve())));
    await replied;
  };
  return { start: () => ask({ profile: 'start' }), stop: (file) => ask({ profile: 'stop', file }) };
}

/** `--import <the hook>` when BENCH_PROFILE is set (after a loader of TypeScript), else nothing. */
export const profileHookImport = (): string[] =>
  PROFILE_DIR ? ['--import', fileURLToPath(new URL('./profile-hook.ts', import.meta.url))] : [];

/**
 * A server's Node arguments with the hook preloaded, when BENCH_PROFILE is set: after tsx's loader
 * (added where the arguments do not load it already: the compiled service), before the script.
 */
export function withProfileHook(args: string[]): string[] {
  const hook = profileHookImport();
  if (hook.length === 0) return args;
  const tsx = args.findIndex((arg, i) => arg === 'tsx' && args[i - 1] === '--import');
  return tsx === -1 ? ['--import', 'tsx', ...hook, ...args] : [...args.slice(0, tsx + 1), ...hook, ...args.slice(tsx + 1)];
}
