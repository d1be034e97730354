import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, noContent } from '../../../shared/schemas.js';
import { coreTags } from '../core.tags.js';
import { toReference } from './references.mappers.js';
import { referenceCreateBody, referenceLookupBody, referenceSchema, refParams } from './references.schemas.js';
import type { ReferencesService } from './references.service.js';

const tag = coreTags.references;

export const referencesBackofficeRoutes: FastifyPluginAsyncZod<{ references: ReferencesService }> = async (
  app,
  { references },
) => {
  route(app, {
    method: 'POST',
    url: '/references',
    operationId: 'createReference',
    record: { kind: 'reference' },
    summary: 'Create a reference',
    description: 'Maps `<provider>:<id>` to a record URN. An expired reference with the same ref is replaced.',
    tag,
    access: { permission: 'core:write' },
    body: referenceCreateBody,
    response: { 201: dataOf(referenceSchema) },
    errors: [409],
    handler: async (ctx, { body }) => one(toReference(await references.create(ctx, body))),
  });

  route(app, {
    method: 'POST',
    url: '/references/lookup',
    operationId: 'lookupReferences',
    record: { kind: 'lookup' },
    summary: 'Lookup references',
    description: 'Answers the live references among up to 100 refs, in the order asked; unknown ones are left out.',
    tag,
    access: { permission: 'core:read' },
    body: referenceLookupBody,
    response: { 200: z.object({ data: z.array(referenceSchema) }) },
    handler: async (ctx, { body }) => ({ data: (await references.lookup(ctx, body.refs)).map(toReference) }),
  });

  route(app, {
    method: 'GET',
    url: '/references/:ref',
    operationId: 'getReference',
    summary: 'Reference by ref',
    description: 'ref is `<provider>:<uuid>`; an expired reference, or a string of another shape, is not found.',
    tag,
    access: { permission: 'core:read' },
    params: refParams,
    response: { 200: dataOf(referenceSchema) },
    handler: async (ctx, { params }) => one(toReference(await references.get(ctx, params.ref))),
  });

  route(app, {
    method: 'DELETE',
    url: '/references/:ref',
    operationId: 'deleteReference',
    record: { kind: 'reference', param: 'ref' },
    version: { read: 'getReference' },
    summary: 'Remove a reference by ref',
    description: 'References are mappings, not content: removing one frees its ref for a new mapping.',
    tag,
    access: { permission: 'core:write' },
    params: refParams,
    response: { 204: noContent },
    handler: async (ctx, { params }) => references.remove(ctx, params.ref),
  });
};
