import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, idParams } from '../../../shared/schemas.js';
import { readerhubTags } from '../readerhub.tags.js';
import { toReaderInvitation } from './invitations.mappers.js';
import { readerInvitationSchema } from './invitations.schemas.js';
import type { InvitationsService } from './invitations.service.js';

export const invitationsReaderRoutes: FastifyPluginAsyncZod<{ invitations: InvitationsService }> = async (
  app,
  { invitations },
) => {
  route(app, {
    method: 'GET',
    url: '/invitations/:id',
    operationId: 'readerGetInvitation',
    serves: 'invitation',
    primary: true,
    summary: 'Invitation by id',
    description:
      'An invitation of the media that has not expired. An expired one answers 404 with code `invitation_expired` ' +
      '(its details are no longer served); an unknown one 404 `invitation_not_found`.',
    tag: readerhubTags.readerInvitations,
    // The invitee is usually not signed in yet: the application's own token is enough.
    access: { scope: 'media:read' },
    params: idParams,
    response: { 200: dataOf(readerInvitationSchema) },
    handler: async (ctx, { params }) => one(toReaderInvitation(await invitations.open(ctx, params.id))),
  });
};
