import { type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileForm, jpeg, startS3 } from '../../assets/fixtures.js';
import { type TestContext, createTestApp, expectOthersProceed, within } from '../../setup/app.js';
import { UUID } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';

// An upload's slow work (decoding the image, storing its bytes) runs before the write's
// transaction opens (route.ts `upload.stage`): while S3 takes its time over a PUT, the upload
// holds no connection or lock. On PGlite, with its one connection, a transaction held open over
// the PUT would keep every other query waiting; on PostgreSQL it would hold a pooled connection.

let ctx: TestContext;
let media: SeededMedia;
let api: Client;
let s3: Awaited<ReturnType<typeof startS3>>;
let gate: Server;
/** PUTs the gate holds until released, each noted as it arrives. */
const held: Array<() => void> = [];
let arrived: () => void = () => undefined;

/** An S3 endpoint in front of s3rver that holds every PUT until the test lets it through. */
async function startGate(target: string): Promise<string> {
  gate = createServer((req: IncomingMessage, res: ServerResponse) => {
    const forward = () => {
      const upstream = request(new URL(req.url!, target), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    };
    if (req.method !== 'PUT') return forward();
    req.pause();
    held.push(forward);
    arrived();
  });
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(gate.address() as { port: number }).port}`;
}

beforeAll(async () => {
  s3 = await startS3();
  const endpoint = await startGate(s3.options.endpoint);
  ctx = await createTestApp({ s3: { ...s3.options, endpoint } });
  media = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
});
afterAll(async () => {
  for (const release of held.splice(0)) release();
  await ctx?.close();
  await new Promise((resolve) => gate?.close(resolve));
  await s3?.close();
});

describe('an upload whose storage is slow', () => {
  it('holds no transaction or connection while its bytes are stored; the upload then succeeds', async () => {
    const image = await jpeg(320, 200);
    const { payload, headers } = fileForm(image, 'stored-slowly.jpg', 'image/jpeg');
    const putArrived = new Promise<void>((resolve) => (arrived = resolve));
    const upload = ctx.app.inject({ method: 'POST', url: '/core/v2/assets', headers: { ...headers, 'x-api-key': media.keys.editor }, payload });
    await within(10_000, putArrived, 'the PUT to S3');

    // The bytes are on their way to S3: other writes and reads go on meanwhile.
    await expectOthersProceed(ctx, api, 'an upload is being stored');
    // Nothing of the upload is in the database yet.
    expect((await api.get('/core/v2/assets/images')).json().data).toEqual([]);

    for (const release of held.splice(0)) release();
    const res = await within(10_000, upload, 'the upload');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ id: expect.stringMatching(UUID), content_type: 'image/jpeg', width: 320, height: 200, size: image.length });
    // The same bytes again: known, so nothing is decoded or stored again (no PUT held), 200.
    const again = await within(5_000, ctx.app.inject({ method: 'POST', url: '/core/v2/assets', headers: { ...headers, 'x-api-key': media.keys.editor }, payload }), 'the same upload again');
    expect(again.statusCode).toBe(200);
    expect(again.json().data.id).toBe(res.json().data.id);
    expect(held).toEqual([]);
  });
});
