import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { backofficeResource } from '../../../shared/http/resource.js';
import { readerhubTags } from '../readerhub.tags.js';
import { toBackofficeInvitation } from './invitations.mappers.js';
import { invitationCreateBody, invitationSchema, invitationsQuery } from './invitations.schemas.js';
import type { InvitationsService } from './invitations.service.js';

/** /core/v2/reader-invitations: invitations the Reader's "Invitation by id" answers. */
export const invitationsBackofficeRoutes: FastifyPluginAsyncZod<{ invitations: InvitationsService }> = async (
  app,
  { invitations },
) => {
  const resource = backofficeResource(app, {
    path: '/reader-invitations',
    kind: 'reader_invitation',
    names: { one: 'ReaderInvitation', many: 'ReaderInvitations' },
    tag: readerhubTags.invitations,
    item: invitationSchema,
    map: toBackofficeInvitation,
    read: 'readerhub:read',
    write: 'readerhub:write',
  });
  resource.create(
    {
      summary: 'Create a reader invitation',
      description: 'The e-mail address is stored in lower case. Sending the invitation is up to the caller.',
      body: invitationCreateBody,
    },
    invitations.create,
  );
  resource.list(
    { summary: 'List reader invitations', description: 'Newest first, expired ones included.', querystring: invitationsQuery },
    invitations.list,
  );
  resource.get({ summary: 'Reader invitation by id' }, invitations.get);
};
