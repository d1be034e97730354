import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { one } from '../../../shared/envelopes.js';
import { backofficeResource } from '../../../shared/http/resource.js';
import { route } from '../../../shared/http/route.js';
import { acceptUploads, fileField } from '../../../shared/http/upload.js';
import { dataOf, idParams } from '../../../shared/schemas.js';
import { adOpsTags } from '../ad-ops.tags.js';
import type { creativeMapper } from './creatives.mappers.js';
import { creativeBody, creativeSchema } from './creatives.schemas.js';
import type { CreativesService } from './creatives.service.js';
import { creativeAggregate } from './creatives.repository.js';

const imageForm = z.strictObject({ file: fileField.describe('The image: JPEG, PNG, WebP, AVIF or GIF') });
const imageFields = imageForm.omit({ file: true });

export const creativesBackofficeRoutes: FastifyPluginAsyncZod<{
  creatives: CreativesService;
  toCreative: ReturnType<typeof creativeMapper>;
  uploadLimit: number;
}> = async (app, { creatives, toCreative, uploadLimit }) => {
  const resource = backofficeResource(app, {
    path: '/creatives',
    kind: 'creative',
    lock: creativeAggregate,
    names: { one: 'Creative', many: 'Creatives' },
    tag: adOpsTags.creatives,
    item: creativeSchema,
    map: toCreative,
    read: 'ad-ops:read',
    write: 'ad-ops:write',
  });
  resource.allUnder(
    { url: '/ads/:id/creatives', operationId: 'listAdCreatives', summary: "All of an ad's creatives", description: 'Live creatives, oldest first (an ad has at most 100).' },
    creatives.listInAd,
  );
  resource.createUnder(
    {
      url: '/ads/:id/creatives',
      operationId: 'createCreative',
      summary: 'Create a creative',
      description:
        '`kind: html` carries `html` (sanitized on write); `kind: image` gets its image from `PUT /ad-ops/v2/creatives/{id}/image`. ' +
        '`click_url` is http or https. 404 `ad_not_found`; 409 `creative_limit_reached` past 100 live creatives.',
      body: creativeBody,
      errors: [404, 409],
    },
    creatives.create,
  );
  resource.get({ summary: 'Creative by id' }, creatives.get);
  resource.update(
    {
      summary: 'Update a creative',
      description: 'A full replace, validated like a create. An image creative keeps its uploaded image; one turned into html drops it.',
      method: 'PUT',
      body: creativeBody,
    },
    creatives.replace,
  );
  resource.remove({ summary: 'Delete a creative (soft)', description: 'The ad no longer shows it.' }, creatives.remove);

  // Multipart only where a file is taken: every other route keeps refusing a form with 415.
  await app.register(async (uploads) => {
    await acceptUploads(uploads);
    route(uploads, {
      method: 'PUT',
      url: '/creatives/:id/image',
      operationId: 'uploadCreativeImage',
      record: { kind: 'creative' },
      version: { read: 'getCreative', lock: creativeAggregate },
      summary: 'Upload a creative image',
      description:
        "`multipart/form-data` with the image in the field `file`, through core's asset upload: at most UPLOAD_LIMIT bytes " +
        '(413 beyond), the type read from the bytes (JPEG, PNG, WebP, AVIF or GIF; anything else, SVG included, is a 415), ' +
        'corrupt images 422. The file becomes an asset image of the media, named after the creative, and replaces the ' +
        "creative's image. 409 `creative_not_image` for a creative of kind html.",
      tag: adOpsTags.creatives,
      access: { permission: 'ad-ops:write' },
      params: idParams,
      consumes: ['multipart/form-data'],
      body: imageForm,
      response: { 200: dataOf(creativeSchema) },
      errors: [409, 413, 415, 422, 503],
      upload: { limit: uploadLimit, fields: imageFields, stage: (ctx, form, path) => creatives.stageImage(ctx, path.id!, form.bytes) },
      handler: async (ctx, { params, upload }) => one(toCreative(await creatives.uploadImage(ctx, params.id, upload.staged))),
    });
  });
};
