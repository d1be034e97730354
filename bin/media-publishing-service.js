#!/usr/bin/env node
// The package's bin. In a checkout it runs the TypeScript sources through tsx (always current);
// where there are none, or tsx is not installed (the image), the compiled dist/cli.js.
import { existsSync } from 'node:fs';
import { URL } from 'node:url';

const source = new URL('../src/cli.ts', import.meta.url);
let tsx;
if (existsSync(source)) {
  try {
    tsx = await import('tsx/esm/api');
  } catch (err) {
    // A production install has no tsx; anything else is a real failure.
    if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
  }
}
if (tsx) {
  tsx.register();
  await import(source.href);
} else {
  await import(new URL('../dist/cli.js', import.meta.url).href);
}
