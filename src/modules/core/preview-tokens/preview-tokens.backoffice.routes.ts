import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { dataOf } from '../../../shared/schemas.js';
import { coreTags } from '../core.tags.js';
import { DEFAULT_EXPIRES_IN, createdPreviewTokenSchema, previewTokenCreateBody } from './preview-tokens.schemas.js';
import type { PreviewTokensService } from './preview-tokens.service.js';

/** /core/v2/preview-tokens: the media as it will be at an instant (time-travel preview). */
export const previewTokensBackofficeRoutes: FastifyPluginAsyncZod<{ previewTokens: PreviewTokensService }> = async (app, { previewTokens }) => {
  route(app, {
    method: 'POST',
    url: '/preview-tokens',
    operationId: 'createPreviewToken',
    // Audited; no webhook event: a preview changes nothing readers see.
    record: { kind: 'preview_token', webhooks: false },
    summary: 'Create a time-travel preview token',
    description:
      'A media-wide token with which every Reader read and list answers as it will at `as_of`: contents whose `published_at` is at or before `as_of` appear. Send it to the Reader as `x-preview-token` (or `?preview_token=`) beside a bearer token of the media; its answers carry `meta.preview: true`, `Cache-Control: private, no-store` and `X-Robots-Tag: noindex`. The token is shown once; only its hash is stored.',
    tag: coreTags.previewTokens,
    access: { permission: 'core:write' },
    body: previewTokenCreateBody,
    // The answer carries a secret shown once: a stored replay would keep it at rest.
    idempotent: false,
    response: { 201: dataOf(createdPreviewTokenSchema) },
    handler: async (ctx, { body }) => {
      const { row, token } = await previewTokens.issue(ctx, { contentId: null, asOf: body.as_of, expiresIn: body.expires_in ?? DEFAULT_EXPIRES_IN });
      return one({ id: row.id, token, expires_at: row.expiresAt.toISOString(), as_of: row.asOf!.toISOString() });
    },
  });
};
