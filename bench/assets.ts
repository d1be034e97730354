/**
 * The image-delivery part of `npm run bench` (issue 9): `GET /assets/{file_key}?w=400&format=webp`
 * answered from storage, beside a bare static-file route serving the same bytes from the same
 * file (target: at least 60 % of its throughput), and the median time of the first, uncached
 * transform of a 2000 × 1500 JPEG.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import type { App } from '../src/app.js';
import { systemContext } from '../src/shared/context.js';
import type { LoadScenario } from './load.js';
import { type MeasuredRow, median } from './rows.js';

const SAMPLES = 7;
const TARGET_THROUGHPUT = 0.6;
const CACHED = 'asset w=400 webp (cached)';
const FLOOR = 'floor: static file';

/** A 2000 × 1500 photo-like JPEG (smoothed noise: every one different, none compressible to nothing). */
const photo = () =>
  sharp({ create: { width: 2000, height: 1500, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .blur(1.5)
    .jpeg({ quality: 85 })
    .toBuffer();

async function uploadImage(app: App, mediaId: string, bytes: Buffer): Promise<string> {
  const ctx = systemContext(app.db, mediaId);
  const { row } = await app.services.core.assets.upload(ctx, bytes);
  await app.services.core.assets.createImage(ctx, { file_key: row.fileKey, name: 'Bench photo' });
  return row.fileKey;
}

export interface AssetsBench {
  /** The scenarios to add to the plan: the floor first, then the cached delivery. */
  plan: (base: Omit<LoadScenario, 'url' | 'paths' | 'headers' | 'method'>) => Array<{ name: string; scenario: LoadScenario }>;
  /** Prints the delivery targets and the transform time, once the rows are measured. */
  report: (rows: MeasuredRow[]) => void;
  close: () => Promise<void>;
}

/**
 * Uploads the photos through the service, times the first transform of each through HTTP,
 * renders the cached variant once, and starts the floor on the very file the app serves.
 */
export async function prepareAssetsBench(options: { app: App; mediaId: string; appUrl: string; storageDir: string; host: string }): Promise<AssetsBench> {
  const { app, mediaId, appUrl } = options;
  const keys: string[] = [];
  for (let i = 0; i < SAMPLES; i++) keys.push(await uploadImage(app, mediaId, await photo()));

  // First transforms, one at a time on an idle server: each decodes its own original.
  const timings: number[] = [];
  for (const key of keys) {
    const started = performance.now();
    const res = await fetch(`${appUrl}/assets/${key}?w=400&format=webp`);
    if (res.status !== 200) throw new Error(`the first transform of ${key} answered ${res.status}`);
    await res.arrayBuffer();
    timings.push(performance.now() - started);
  }

  const key = keys[0]!;
  const path = `/assets/${key}?w=400&format=webp`;
  const served = Buffer.from(await (await fetch(`${appUrl}${path}`)).arrayBuffer());
  const [media, hash] = key.replace(/\.jpg$/, '').split('_') as [string, string];
  const file = join(options.storageDir, 'variants', media, hash, '400x0-inside-any-q0.webp');
  if (!(await readFile(file)).equals(served)) throw new Error(`the floor's file ${file} is not what the app serves`);

  // Bare Fastify reading the same file on every request, as a static-file server does:
  // no lookup, no validation, no hooks, no cache headers.
  const floor: FastifyInstance = Fastify({ logger: false });
  floor.get('/static', async (_req, reply) => reply.type('image/webp').send(await readFile(file)));
  await floor.listen({ host: options.host, port: 0 });
  const address = floor.server.address();
  const floorUrl = `http://${options.host}:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    plan: (base) => [
      { name: FLOOR, scenario: { ...base, url: floorUrl, method: 'GET', headers: {}, paths: ['/static'] } },
      { name: CACHED, scenario: { ...base, url: appUrl, method: 'GET', headers: {}, paths: [path] } },
    ],
    report: (rows) => {
      const cached = rows.find((r) => r.name === CACHED);
      const floorRow = rows.find((r) => r.name === FLOOR);
      console.log('\nImage delivery (issue 9)');
      if (cached && floorRow) {
        const clean = cached.result.non2xx + cached.result.errors + cached.result.timeouts === 0;
        const ratio = cached.result.requestsPerSecond / floorRow.result.requestsPerSecond;
        console.log(
          `  ${clean && ratio >= TARGET_THROUGHPUT ? 'PASS' : 'FAIL'}  ${CACHED}: throughput ${Math.round(100 * ratio)} % of a bare ` +
            `static-file route on the same bytes (target >= ${100 * TARGET_THROUGHPUT} %); CPU ${Math.round(cached.cpuUsPerRequest)} us/req ` +
            `vs ${Math.round(floorRow.cpuUsPerRequest)} us; ${served.length} bytes an answer${clean ? '' : ' (failed requests: figures not valid)'}`,
        );
      }
      console.log(
        `  first, uncached transform of a 2000 x 1500 JPEG to w=400 webp (read, decode, resize, encode, store): median ` +
          `${median(timings).toFixed(0)} ms over ${SAMPLES} images (min ${Math.min(...timings).toFixed(0)}, max ${Math.max(...timings).toFixed(0)})`,
      );
    },
    close: () => floor.close(),
  };
}
