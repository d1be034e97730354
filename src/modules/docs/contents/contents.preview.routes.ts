import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { list, one } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, idParams, listOf, noContent, pagingQuery, uuid } from '../../../shared/schemas.js';
import {
  DEFAULT_PREVIEW_EXPIRES_IN,
  type PreviewTokensService,
  createdPreviewLinkSchema,
  previewLinkCreateBody,
  previewLinkSchema,
  toPreviewLink,
} from '../../core/index.js';
import { docsTags } from '../docs.tags.js';
import type { ContentsService } from './contents.service.js';

const linkParams = z.object({ id: uuid, link_id: uuid });

/**
 * /docs/v2/contents/{id}/preview-links: short-lived, revocable tokens with which the Reader serves
 * this one content as it is now, whatever its status or publication time.
 */
export const contentPreviewLinksRoutes: FastifyPluginAsyncZod<{ contents: ContentsService; previewTokens: PreviewTokensService }> = async (
  app,
  { contents, previewTokens },
) => {
  const tag = docsTags.contentPreviewLinks;
  // Audited; no webhook event: a preview link changes nothing readers see.
  const record = { kind: 'preview_link', webhooks: false } as const;

  route(app, {
    method: 'POST',
    url: '/contents/:id/preview-links',
    operationId: 'createContentPreviewLink',
    record,
    summary: 'Content preview links: create',
    description:
      'A token that opens this content on the Reader as it is now (a draft, a scheduled or an unpublished one; never a deleted one), sent as `x-preview-token` (or `?preview_token=`) beside a bearer token of the media. It opens nothing else. Shown once; only its hash is stored.',
    tag,
    access: { permission: 'docs:write' },
    params: idParams,
    body: previewLinkCreateBody,
    idempotent: false,
    response: { 201: dataOf(createdPreviewLinkSchema) },
    handler: async (ctx, { params, body }) => {
      await contents.get(ctx, params.id);
      const { row, token } = await previewTokens.issue(ctx, {
        contentId: params.id,
        asOf: null,
        expiresIn: body.expires_in ?? DEFAULT_PREVIEW_EXPIRES_IN,
      });
      return one({ id: row.id, token, expires_at: row.expiresAt.toISOString() });
    },
  });

  route(app, {
    method: 'GET',
    url: '/contents/:id/preview-links',
    operationId: 'listContentPreviewLinks',
    summary: 'Content preview links: list',
    description: "The content's preview links, newest first, revoked and expired ones included; tokens are never shown again.",
    tag,
    access: { permission: 'docs:read' },
    params: idParams,
    querystring: pagingQuery,
    response: { 200: listOf(previewLinkSchema) },
    handler: async (ctx, { params, query }, reply) => {
      await contents.get(ctx, params.id);
      return list(reply.request, await previewTokens.listOfContent(ctx, params.id, query), toPreviewLink);
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/contents/:id/preview-links/:link_id',
    operationId: 'revokeContentPreviewLink',
    record: { ...record, param: 'link_id' },
    summary: 'Content preview links: revoke',
    description: 'The token opens nothing from then on (401 `preview_token_invalid`). Revoking twice keeps the first revocation time.',
    tag,
    access: { permission: 'docs:write' },
    params: linkParams,
    response: { 204: noContent },
    handler: async (ctx, { params }, reply) => {
      await contents.get(ctx, params.id);
      await previewTokens.revokeOfContent(ctx, params.id, params.link_id);
      reply.status(204);
    },
  });
};
