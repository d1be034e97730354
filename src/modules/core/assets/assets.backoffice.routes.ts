import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createdOrFound, one } from '../../../shared/envelopes.js';
import { backofficeResource } from '../../../shared/http/resource.js';
import { route } from '../../../shared/http/route.js';
import { acceptUploads } from '../../../shared/http/upload.js';
import { dataOf, idParams } from '../../../shared/schemas.js';
import { coreTags } from '../core.tags.js';
import { toAsset, toAssetImage } from './assets.mappers.js';
import {
  assetImageCreateBody,
  assetImageSchema,
  assetImageUpdateBody,
  assetSchema,
  assetUploadFields,
  assetUploadForm,
  fileHashParams,
  fileKeyParams,
} from './assets.schemas.js';
import type { AssetsService } from './assets.service.js';
import { imageAggregate } from './assets.repository.js';

export const assetsBackofficeRoutes: FastifyPluginAsyncZod<{ assets: AssetsService }> = async (app, { assets }) => {
  // Multipart only where a file is taken: every other route keeps refusing a form with 415.
  await app.register(async (uploads) => {
    await acceptUploads(uploads);
    route(uploads, {
      method: 'POST',
      url: '/assets',
      operationId: 'uploadAsset',
      record: { kind: 'asset' },
      summary: 'Upload an asset image',
      description:
        '`multipart/form-data` with the image in the field `file` (at most UPLOAD_LIMIT bytes, 413 beyond). The type comes ' +
        'from the bytes: JPEG, PNG, WebP, AVIF or GIF; anything else (SVG included) is a 415. Images over 100 megapixels are ' +
        'refused from their header (413), truncated or corrupt ones after a trial decode (422). The same bytes uploaded again ' +
        'answer 200 with the asset they made; 201 when new. The `file_key` is derived from the media and the SHA-256 of the ' +
        'bytes, never from the file name.',
      tag: coreTags.assets,
      access: { permission: 'core:write' },
      consumes: ['multipart/form-data'],
      body: assetUploadForm,
      response: { 201: dataOf(assetSchema), 200: dataOf(assetSchema) },
      errors: [413, 415, 422, 503],
      upload: { limit: assets.uploads.upload, fields: assetUploadFields, stage: (ctx, form) => assets.stage(ctx, form.bytes) },
      handler: async (ctx, { upload }, reply) => createdOrFound(reply, await assets.record(ctx, upload.staged), toAsset),
    });
  });

  route(app, {
    method: 'GET',
    url: '/assets/:id',
    operationId: 'getAsset',
    summary: 'Asset by id',
    tag: coreTags.assets,
    access: { permission: 'core:read' },
    params: idParams,
    response: { 200: dataOf(assetSchema) },
    handler: async (ctx, { params }) => one(toAsset(await assets.getAsset(ctx, params.id))),
  });

  const images = backofficeResource(app, {
    path: '/assets/images',
    kind: 'image',
    lock: imageAggregate,
    names: { one: 'AssetImage', many: 'AssetImages' },
    tag: coreTags.assetImages,
    item: assetImageSchema,
    map: toAssetImage,
    read: 'core:read',
    write: 'core:write',
  });

  images.list({ summary: 'List asset images', description: "Live image records of the key's media, newest first." }, assets.listImages);
  images.create(
    {
      summary: 'Create an asset image',
      description: 'An image record over an uploaded file (`file_key` from the upload; 404 `asset_not_found` otherwise). Two records may share one file.',
      body: assetImageCreateBody,
      errors: [404],
    },
    assets.createImage,
  );
  images.get({ summary: 'Asset image by id' }, assets.getImage);
  images.update(
    {
      summary: 'Update an asset image',
      description: 'Fields left out keep their value. `locales`, when sent, is the complete set of locale entries.',
      body: assetImageUpdateBody,
    },
    assets.updateImage,
  );
  images.remove(
    {
      summary: 'Delete an asset image (soft)',
      description:
        'Sets deleted_at on the record and its live locale entries; the file is no longer delivered unless another live record uses it.',
    },
    assets.removeImage,
  );
  images.restore(
    { summary: 'Restore a deleted asset image', description: 'Idempotent: restoring a live record answers it as it is.' },
    assets.restoreImage,
  );

  route(app, {
    method: 'GET',
    url: '/assets/images/by-key/:file_key',
    operationId: 'getAssetImageByKey',
    summary: 'Asset image by file key',
    description: 'The newest live image record over the file.',
    tag: coreTags.assetImages,
    access: { permission: 'core:read' },
    params: fileKeyParams,
    response: { 200: dataOf(assetImageSchema) },
    handler: async (ctx, { params }) => one(toAssetImage(await assets.imageByKey(ctx, params.file_key))),
  });

  route(app, {
    method: 'GET',
    url: '/assets/images/by-hash/:file_hash',
    operationId: 'getAssetImageByHash',
    summary: 'Asset image by file hash',
    description: 'The newest live image record over the file with this SHA-256.',
    tag: coreTags.assetImages,
    access: { permission: 'core:read' },
    params: fileHashParams,
    response: { 200: dataOf(assetImageSchema) },
    handler: async (ctx, { params }) => one(toAssetImage(await assets.imageByHash(ctx, params.file_hash))),
  });
};
