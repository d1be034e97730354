import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { one } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, idParams, noContent, uuid } from '../../../shared/schemas.js';
import { iso } from '../../../shared/time.js';
import { docsTags } from '../docs.tags.js';
import { backofficeCorrectionSchema, correctionCreateBody } from './contents.schemas.js';
import type { ContentsService } from './contents.service.js';

const correctionParams = z.object({ id: uuid, correction_id: uuid });

type CorrectionRow = Awaited<ReturnType<ContentsService['correct']>>;
const toCorrection = (row: CorrectionRow) => ({
  id: row.id,
  inserted_at: iso(row.insertedAt),
  note_html: row.noteHtml,
  note_text: row.noteText,
  locale: row.locale,
});

/**
 * /docs/v2/contents/{id}/corrections: public notes on a content, per language. Adding one is the
 * webhook event `content.corrected` (the content's public page changed); removing one `content.updated`.
 */
export const contentCorrectionsRoutes: FastifyPluginAsyncZod<{ contents: ContentsService }> = async (app, { contents }) => {
  const tag = docsTags.contentCorrections;

  route(app, {
    method: 'GET',
    url: '/contents/:id/corrections',
    operationId: 'listContentCorrections',
    summary: 'Content corrections: all',
    description: "The content's live correction notes in every language, newest first.",
    tag,
    access: { permission: 'docs:read' },
    params: idParams,
    response: { 200: dataOf(z.array(backofficeCorrectionSchema)) },
    handler: async (ctx, { params }) => one((await contents.corrections(ctx, params.id)).map(toCorrection)),
  });

  route(app, {
    method: 'POST',
    url: '/contents/:id/corrections',
    operationId: 'createContentCorrection',
    record: { kind: 'content', action: 'corrected' },
    summary: 'Content corrections: add',
    description:
      'A public note in one of the content\'s languages (404 `locale_not_found` when it has no entry there): `note_html` is sanitized, `note_text` derived. The Reader serves it with the content in that language, newest first, and so does the RSS item. Emits `content.corrected`.',
    tag,
    access: { permission: 'docs:write' },
    params: idParams,
    body: correctionCreateBody,
    response: { 201: dataOf(backofficeCorrectionSchema) },
    errors: [404],
    handler: async (ctx, { params, body }) => one(toCorrection(await contents.correct(ctx, params.id, body))),
  });

  route(app, {
    method: 'DELETE',
    url: '/contents/:id/corrections/:correction_id',
    operationId: 'deleteContentCorrection',
    // The content changed (a note left it), not the content deleted.
    record: { kind: 'content', action: 'updated' },
    summary: 'Content corrections: remove',
    description: 'Soft-deletes the note: readers no longer see it.',
    tag,
    access: { permission: 'docs:write' },
    params: correctionParams,
    response: { 204: noContent },
    handler: async (ctx, { params }, reply) => {
      await contents.removeCorrection(ctx, params.id, params.correction_id);
      reply.status(204);
    },
  });
};
