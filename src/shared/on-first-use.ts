import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/**
 * A CommonJS package loaded the first time the answer is called, not when the process starts:
 * for a package that only some requests or jobs need (sanitizing HTML, writing RSS, sending mail),
 * whose loading and compiling the service's start-up would otherwise pay (issue 47: each one
 * 30–100 ms of CPU before the first answer). Synchronous, so that callers stay as they are; what
 * an asynchronous caller needs of an ES module it imports with `await import()` where it uses it.
 */
export function onFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireHere(name) as T);
}
