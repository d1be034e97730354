import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { dataOf, errorResponses, noContent } from '../../../shared/schemas.js';
import { toReference } from './references.mappers.js';
import { referenceCreateBody, referenceLookupBody, referenceSchema, refParams } from './references.schemas.js';
import type { ReferencesService } from './references.service.js';

const tags = ['Core: References'];

export const referencesBackofficeRoutes: FastifyPluginAsyncZod<{ references: ReferencesService }> = async (
  app,
  { references },
) => {
  app.post('/references', {
    config: { permission: 'core:write' },
    schema: {
      tags,
      summary: 'Create a reference',
      description: 'Maps `<provider>:<id>` to a record URN. An expired reference with the same ref is replaced.',
      body: referenceCreateBody,
      response: { 201: dataOf(referenceSchema), ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
    },
    handler: async (req, reply) => reply.status(201).send(one(toReference(await references.create(req.principal.mediaId, req.body)))),
  });

  app.post('/references/lookup', {
    config: { permission: 'core:read' },
    schema: {
      tags,
      summary: 'Lookup references',
      description: 'Answers the live references among up to 100 refs, in the order asked; unknown ones are left out.',
      body: referenceLookupBody,
      response: { 200: z.object({ data: z.array(referenceSchema) }), ...errorResponses(400, 401, 403, 413, 415, 429) },
    },
    handler: async (req) => ({ data: (await references.lookup(req.principal.mediaId, req.body.refs)).map(toReference) }),
  });

  app.get('/references/:ref', {
    config: { permission: 'core:read' },
    schema: {
      tags,
      summary: 'Reference by ref',
      description: 'ref is `<provider>:<uuid>`; an expired reference, or a string of another shape, is not found.',
      params: refParams,
      response: { 200: dataOf(referenceSchema), ...errorResponses(401, 403, 404, 429) },
    },
    handler: async (req) => one(toReference(await references.get(req.principal.mediaId, req.params.ref))),
  });

  app.delete('/references/:ref', {
    config: { permission: 'core:write' },
    schema: {
      tags,
      summary: 'Remove a reference by ref',
      description: 'References are mappings, not content: removing one frees its ref for a new mapping.',
      params: refParams,
      response: { 204: noContent, ...errorResponses(401, 403, 404, 429) },
    },
    handler: async (req, reply) => {
      await references.remove(req.principal.mediaId, req.params.ref);
      return reply.status(204).send();
    },
  });
};
