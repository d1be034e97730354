import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileForm, jpeg, tempDir } from '../../assets/fixtures.js';
import { type TestContext, createTestApp, expectOthersProceed, within } from '../../setup/app.js';
import { UUID } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';

// A client that sends its upload slowly must not hold what other requests need: the route
// primitive reads the form whole before the write's transaction opens (route.ts `upload`). On
// PGlite, with its one connection, a transaction held open by a waiting upload would keep every
// other query waiting; on PostgreSQL it would hold one of the pool's connections per upload.

let ctx: TestContext;
let media: SeededMedia;
let api: Client;
let storage: Awaited<ReturnType<typeof tempDir>>;
let port: number;

beforeAll(async () => {
  storage = await tempDir('slow-upload');
  ctx = await createTestApp({ storageDir: storage.path });
  media = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await ctx?.close();
  await storage?.remove();
});

describe('a slow upload', () => {
  it('holds no transaction or connection while its body is on the way; the upload then succeeds', async () => {
    const image = await jpeg(640, 480);
    const { payload, headers } = fileForm(image, 'slow.jpg', 'image/jpeg');
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.on('end', resolve));
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /core/v2/assets HTTP/1.1\r\nhost: localhost\r\nx-api-key: ${media.keys.editor}\r\n` +
        `content-type: ${headers['content-type']}\r\ncontent-length: ${payload.length}\r\nconnection: close\r\n\r\n`,
    );
    socket.write(payload.subarray(0, payload.length >> 1));
    // The handler has started reading the form and waits for the rest of it.
    await new Promise((resolve) => setTimeout(resolve, 300));

    await expectOthersProceed(ctx, api, 'an upload waits');

    socket.write(payload.subarray(payload.length >> 1));
    await within(10_000, closed, 'the upload');
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 201 /);
    expect(JSON.parse(body!).data).toMatchObject({ id: expect.stringMatching(UUID), content_type: 'image/jpeg', width: 640, height: 480, size: image.length });
  });
});
