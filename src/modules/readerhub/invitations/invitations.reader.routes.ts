import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { dataOf, errorResponses, idParams } from '../../../shared/schemas.js';
import { toReaderInvitation } from './invitations.mappers.js';
import { readerInvitationSchema } from './invitations.schemas.js';
import type { InvitationsService } from './invitations.service.js';

export const invitationsReaderRoutes: FastifyPluginAsyncZod<{ invitations: InvitationsService }> = async (
  app,
  { invitations },
) => {
  app.get('/invitations/:id', {
    // The invitee is usually not signed in yet: the application's own token is enough.
    config: { scope: 'media:read' },
    schema: {
      tags: ['Reader: Invitations'],
      summary: 'Invitation by id',
      description:
        'An invitation of the media that has not expired. An expired one answers 404 with code `invitation_expired` ' +
        '(its details are no longer served); an unknown one 404 `invitation_not_found`.',
      params: idParams,
      response: { 200: dataOf(readerInvitationSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => one(toReaderInvitation(await invitations.open(req.mediaId, req.params.id))),
  });
};
