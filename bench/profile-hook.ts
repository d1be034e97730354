/**
 * Preloaded (`node --import tsx --import ./bench/profile-hook.ts …`) into a server process of its
 * own when BENCH_PROFILE is set: profiles it between the bench's `start` and `stop` messages (over
 * the IPC channel the bench opened), so that a measured turn's profile holds the requests of that
 * turn only, as the profiles of this process's own servers do.
 */
import { type ProfileMessage, type ProfileReply, profilerOfThisProcess } from './profile.js';

const profiler = profilerOfThisProcess();
process.on('message', (message: ProfileMessage) => {
  if (typeof message !== 'object' || message === null || !('profile' in message)) return;
  void (message.profile === 'start' ? profiler.start() : profiler.stop(message.file)).then(() =>
    process.send?.({ profiled: message.profile === 'start' ? 'started' : 'stopped' } satisfies ProfileReply),
  );
});
