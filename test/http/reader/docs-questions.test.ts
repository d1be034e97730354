import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { type ContentWire, type DocsFixture, createBlock, createContent, docsFixture } from '../../setup/docs.js';
import { type JwksTestProvider, startJwksProvider } from '../../setup/identity-providers.js';
import { clientToken, readerClient, readersOf, registerClient, registerProvider } from '../../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let api: Client;
let fx: DocsFixture;
let jwks: JwksTestProvider;
let readers: ReturnType<typeof readersOf>;
let appToken: string;
let content: ContentWire;
let question: { id: string; choices: Array<{ id: string; label: string }> };

const path = (contentId: string, blockId: string, action: 'results' | 'vote') => `/api/media/v1/contents/${contentId}/questions/${blockId}/${action}`;

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  media = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  fx = await docsFixture(api, media.workspaceId);
  jwks = await startJwksProvider();
  await registerProvider(ctx.app, media.keys.admin, jwks.registration);
  readers = readersOf(ctx.app, jwks, media.mediaId);
  appToken = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin))).access_token;
  content = await createContent(api, fx);
  question = (await createBlock(api, content.id, {
    locale: 'en',
    kind: 'question',
    title: 'Tea or coffee?',
    choices: [{ label: 'Tea' }, { label: 'Coffee' }, { label: 'Neither' }],
  })) as unknown as typeof question;
});
afterAll(async () => {
  await ctx?.close();
  await jwks?.close();
});

describe('question results and votes', () => {
  it('counts one vote per reader; voting again replaces the first', async () => {
    const [tea, coffee, neither] = question.choices;
    const app = readerClient(ctx.app, media.mediaId, appToken);
    const empty = await app.get(path(content.id, question.id, 'results'));
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toEqual({
      data: {
        question_id: question.id,
        title: 'Tea or coffee?',
        total: 0,
        choices: [
          { id: tea!.id, label: 'Tea', votes: 0 },
          { id: coffee!.id, label: 'Coffee', votes: 0 },
          { id: neither!.id, label: 'Neither', votes: 0 },
        ],
      },
    });

    const ada = await readers.asReader(`ada-${randomUUID()}`);
    const bob = await readers.asReader(`bob-${randomUUID()}`);
    const voted = await ada.post(path(content.id, question.id, 'vote'), { choice_id: tea!.id });
    expect(voted.statusCode, voted.body).toBe(200);
    expect(voted.json().data).toMatchObject({ question_id: question.id, total: 1, choices: [{ votes: 1 }, { votes: 0 }, { votes: 0 }] });
    await bob.post(path(content.id, question.id, 'vote'), { choice_id: tea!.id });
    const changed = await ada.post(path(content.id, question.id, 'vote'), { choice_id: coffee!.id });
    expect(changed.json().data.choices.map((c: { votes: number }) => c.votes)).toEqual([1, 1, 0]);
    expect((await app.get(path(content.id, question.id, 'results'))).json().data.total).toBe(2);
  });

  it('counts exactly one vote for 50 concurrent votes by one reader', async () => {
    const q = await createBlock(api, content.id, { locale: 'en', kind: 'question', title: 'Race?', choices: [{ label: 'A' }, { label: 'B' }] });
    const choices = q.choices as Array<{ id: string }>;
    const carol = await readers.asReader(`carol-${randomUUID()}`);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => carol.post(path(content.id, q.id, 'vote'), { choice_id: choices[i % 2]!.id })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(200));
    const results = (await readerClient(ctx.app, media.mediaId, appToken).get(path(content.id, q.id, 'results'))).json().data;
    expect(results.total).toBe(1);
  });

  it('answers 401 without a token, 403 to an application token, 400 for a foreign choice, 404 for what is not a published question', async () => {
    const choice = question.choices[0]!.id;
    expectError(await readerClient(ctx.app, media.mediaId).post(path(content.id, question.id, 'vote'), { choice_id: choice }), 401);
    expectError(await readerClient(ctx.app, media.mediaId, appToken).post(path(content.id, question.id, 'vote'), { choice_id: choice }), 403);
    expectError(await readerClient(ctx.app, media.mediaId).get(path(content.id, question.id, 'results')), 401);

    const dan = await readers.asReader(`dan-${randomUUID()}`);
    expectError(await dan.post(path(content.id, question.id, 'vote'), { choice_id: randomUUID() }), 400, 'invalid_choice');
    expectError(await dan.post(path(content.id, question.id, 'vote'), {}), 400, 'validation_failed');

    const text = await createBlock(api, content.id, { locale: 'en', kind: 'richtext', content_html: 'x' });
    expectError(await dan.post(path(content.id, text.id, 'vote'), { choice_id: choice }), 404, 'question_not_found');
    expectError(await dan.post(path(randomUUID(), question.id, 'vote'), { choice_id: choice }), 404, 'question_not_found');
    const draft = await createContent(api, fx, { status_id: fx.statuses.draft });
    const hidden = await createBlock(api, draft.id, { locale: 'en', kind: 'question', title: 'Hidden', choices: [{ label: 'a' }, { label: 'b' }] });
    expectError(await dan.post(path(draft.id, hidden.id, 'vote'), { choice_id: (hidden.choices as Array<{ id: string }>)[0]!.id }), 404, 'question_not_found');
    expectError(await readerClient(ctx.app, media.mediaId, appToken).get(path(draft.id, hidden.id, 'results')), 404, 'question_not_found');

    // A deleted question takes its results with it.
    const gone = await createBlock(api, content.id, { locale: 'en', kind: 'question', title: 'Gone', choices: [{ label: 'a' }, { label: 'b' }] });
    await api.delete(`/docs/v2/contents/${content.id}/blocks/${gone.id}`);
    expectError(await readerClient(ctx.app, media.mediaId, appToken).get(path(content.id, gone.id, 'results')), 404, 'question_not_found');
  });
});
