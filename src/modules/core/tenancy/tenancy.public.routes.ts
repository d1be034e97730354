import type { FastifyPluginAsync } from 'fastify';
import { publicTwin } from '../../../shared/http/public.js';
import { coreTags } from '../core.tags.js';

/** Public (deprecated): the media overview, the media taken from the path; the Reader's operation as it is. */
export const tenancyPublicRoutes: FastifyPluginAsync = async (app) => {
  publicTwin(app, { reader: 'readerGetMedia', url: '/core/v2/medias/:media_id', operationId: 'publicGetMedia', media: 'path', tag: coreTags.public });
};
