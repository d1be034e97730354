import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { acceptUploads } from '../../../shared/http/upload.js';
import { dataOf } from '../../../shared/schemas.js';
import { coreTags } from '../core.tags.js';
import { toAssetImage } from './assets.mappers.js';
import { assetImageSchema, readerUploadFields, readerUploadForm } from './assets.schemas.js';
import type { AssetsService } from './assets.service.js';

/** POST /api/media/v1/assets/images: a signed-in reader's own image (a profile picture). */
export const assetsReaderRoutes: FastifyPluginAsyncZod<{ assets: AssetsService }> = async (app, { assets }) => {
  await acceptUploads(app);
  route(app, {
    method: 'POST',
    url: '/assets/images',
    operationId: 'readerUploadAssetImage',
    summary: 'Upload asset image',
    description:
      "`multipart/form-data`: the image in `file` (at most READER_UPLOAD_LIMIT bytes; JPEG, PNG, WebP, AVIF or GIF, checked " +
      'like a Backoffice upload), optionally `name`, `credit` and a plain-text `caption`. Answers the new image record, whose ' +
      '`file_key` the reader may use as `profile_image_key`. Limited to RATE_LIMIT_READER_UPLOADS uploads a minute per reader.',
    tag: coreTags.readerAssets,
    access: { scope: 'account:write', readerRequired: true },
    consumes: ['multipart/form-data'],
    body: readerUploadForm,
    response: { 201: dataOf(assetImageSchema) },
    errors: [413, 415, 422, 503],
    config: {
      rateLimit: {
        max: assets.uploads.readerPerMinute,
        keyGenerator: (req: { bearer?: { subject: string } | null; ip: string }) => `upload:${req.bearer?.subject ?? req.ip}`,
      },
    },
    upload: { limit: assets.uploads.readerUpload, fields: readerUploadFields, stage: (ctx, form) => assets.stageForReader(ctx, form.bytes) },
    handler: async (ctx, { upload }) =>
      one(toAssetImage(await assets.uploadForReader(ctx, { staged: upload.staged, filename: upload.filename, ...upload.fields }))),
  });
};
