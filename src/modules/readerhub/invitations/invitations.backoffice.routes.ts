import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list, one } from '../../../shared/envelopes.js';
import { dataOf, errorResponses, idParams, listOf } from '../../../shared/schemas.js';
import { toBackofficeInvitation } from './invitations.mappers.js';
import { invitationCreateBody, invitationSchema, invitationsQuery } from './invitations.schemas.js';
import type { InvitationsService } from './invitations.service.js';

const tags = ['ReaderHub: Invitations'];

/** /core/v2/reader-invitations: invitations the Reader's "Invitation by id" answers. */
export const invitationsBackofficeRoutes: FastifyPluginAsyncZod<{ invitations: InvitationsService }> = async (
  app,
  { invitations },
) => {
  app.post('/reader-invitations', {
    config: { permission: 'readerhub:write' },
    schema: {
      tags,
      summary: 'Create a reader invitation',
      description: 'The e-mail address is stored in lower case. Sending the invitation is up to the caller.',
      body: invitationCreateBody,
      response: { 201: dataOf(invitationSchema), ...errorResponses(400, 401, 403, 413, 415, 429) },
    },
    handler: async (req, reply) =>
      reply.status(201).send(one(toBackofficeInvitation(await invitations.create(req.principal.mediaId, req.body)))),
  });

  app.get('/reader-invitations', {
    config: { permission: 'readerhub:read' },
    schema: {
      tags,
      summary: 'List reader invitations',
      description: 'Newest first, expired ones included.',
      querystring: invitationsQuery,
      response: { 200: listOf(invitationSchema), ...errorResponses(400, 401, 403, 429) },
    },
    handler: async (req) => {
      const now = new Date();
      return list(req, await invitations.list(req.principal.mediaId, req.query), (row) => toBackofficeInvitation(row, now));
    },
  });

  app.get('/reader-invitations/:id', {
    config: { permission: 'readerhub:read' },
    schema: {
      tags,
      summary: 'Reader invitation by id',
      params: idParams,
      response: { 200: dataOf(invitationSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => one(toBackofficeInvitation(await invitations.get(req.principal.mediaId, req.params.id))),
  });
};
