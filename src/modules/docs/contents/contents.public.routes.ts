import type { FastifyPluginAsync } from 'fastify';
import { publicTwin } from '../../../shared/http/public.js';
import { docsErrors } from '../docs.errors.js';
import { docsTags } from '../docs.tags.js';
import type { ContentsService } from './contents.service.js';

const tag = docsTags.public;

/**
 * Public (deprecated): contents of a media, a content by id and a question's results, the
 * Reader's operations as they are; the media from the path, or from the published content.
 */
export const contentsPublicRoutes: FastifyPluginAsync<{ contents: Pick<ContentsService, 'mediaOf'> }> = async (app, { contents }) => {
  publicTwin(app, { reader: 'readerListContents', url: '/docs/v2/medias/:media_id/contents', operationId: 'publicListContents', media: 'path', tag });
  publicTwin(app, {
    reader: 'readerGetContent',
    url: '/docs/v2/contents/:id',
    operationId: 'publicGetContent',
    media: { param: 'id', of: (id) => contents.mediaOf(id) },
    tag,
  });
  publicTwin(app, {
    reader: 'readerQuestionResults',
    url: '/docs/v2/contents/:id/questions/:block_id/results',
    operationId: 'publicQuestionResults',
    // The Reader answers question_not_found for a content that is not published: so does its twin.
    media: { param: 'id', of: (id) => contents.mediaOf(id, docsErrors.questionNotFound) },
    tag,
  });
};
