import { existsSync } from 'node:fs';

/**
 * Reads `.env` from the working directory when there is one (for `npm start` and the CLI).
 * Variables already in the environment win, even when empty: Node's loader never overwrites.
 */
export function loadEnvFile(path = '.env'): boolean {
  if (!existsSync(path)) return false;
  process.loadEnvFile(path);
  return true;
}
