/**
 * Preloaded (`node --import tsx --import ./bench/profile-hook.ts …`) into a server process of its
 * own when BENCH_PROFILE is set: profiles it between the bench's `start` and `stop` messages (over
 * the IPC channel the bench opened), so that a measured turn's profile holds the requests of that
 * turn only, as the profiles of this process's own servers do.
 */
import { type ProfileMessage, type ProfileReply, profileThisProcess } from './profile.js';

let running: Awaited<ReturnType<typeof profileThisProcess>> | undefined;
process.on('message', (message: ProfileMessage) => {
  if (typeof message !== 'object' || message === null || !('profile' in message)) return;
  void (async () => {
    if (message.profile === 'start') running = await profileThisProcess();
    else {
      await running?.stop(message.file);
      running = undefined;
    }
    process.send?.({ profiled: message.profile === 'start' ? 'started' : 'stopped' } satisfies ProfileReply);
  })();
});
