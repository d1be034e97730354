import type { FastifyPluginAsync } from 'fastify';
import { publicTwin } from '../../../shared/http/public.js';
import { coreTags } from '../core.tags.js';

/** Public (deprecated): reference by ref, the media taken from the path; the Reader's operation as it is. */
export const referencesPublicRoutes: FastifyPluginAsync = async (app) => {
  publicTwin(app, {
    reader: 'readerGetReference',
    url: '/core/v2/medias/:media_id/references/:ref',
    operationId: 'publicGetReference',
    media: 'path',
    tag: coreTags.public,
  });
};
