import { cp, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * The service's sources bundled once per run, for the tests that start it as a process: Node then
 * loads JavaScript, as in the image (`node dist/main.js`), where tsx took 1.9 s more CPU at each
 * start (4.3 s against 2.4 s to ready) transforming 400 modules through its loader thread. esbuild
 * only strips the types (tsc checks them) and joins our modules into one file, the packages staying
 * imports from `node_modules`: Node's ESM loader resolved, read, compiled and linked each of the 400
 * on its own, about 0.5 s of a start's CPU that one file does not cost. The directory has the
 * checkout's shape, so that packages resolve from `node_modules` and `package.json` makes it ESM;
 * the bundle stands where `src/db/migrate.ts` does, since its `import.meta.url` is the one that
 * finds `../../migrations` (the only other use, `createRequire` in telemetry, resolves packages
 * from anywhere inside the directory). `npm start` itself (tsx) is what startup.test.ts starts.
 */
export async function buildService(dir: string): Promise<string> {
  const root = process.cwd();
  const main = join(dir, 'src', 'db', 'main.js');
  await build({
    entryPoints: [join(root, 'src', 'main.ts')],
    outfile: main,
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  await Promise.all([
    symlink(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir'),
    symlink(join(root, 'migrations'), join(dir, 'migrations'), 'dir'),
    cp(join(root, 'package.json'), join(dir, 'package.json')),
  ]);
  return main;
}
