import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list, one } from '../../../shared/envelopes.js';
import { dataOf, errorResponses, idParams, listOf, pagingQuery } from '../../../shared/schemas.js';
import { toMedia, toStatus, toWorkspace } from './tenancy.mappers.js';
import {
  mediaSchema,
  mediaUpdateBody,
  statusCreateBody,
  statusSchema,
  workspaceCreateBody,
  workspaceSchema,
  workspaceUpdateBody,
} from './tenancy.schemas.js';
import type { TenancyService } from './tenancy.service.js';

export const tenancyBackofficeRoutes: FastifyPluginAsyncZod<{ tenancy: TenancyService }> = async (app, { tenancy }) => {
  app.get('/media', {
    config: { permission: 'core:read' },
    schema: {
      tags: ['Core: Media'],
      summary: "The key's own media",
      response: { 200: dataOf(mediaSchema), ...errorResponses(401, 403, 429) },
    },
    handler: async (req) => one(toMedia(await tenancy.getMedia(req.principal.mediaId))),
  });

  app.patch('/media', {
    config: { permission: 'admin:write' },
    schema: {
      tags: ['Core: Media'],
      summary: "Update the key's own media",
      body: mediaUpdateBody,
      response: { 200: dataOf(mediaSchema), ...errorResponses(400, 401, 403, 413, 415, 429) },
    },
    handler: async (req) => one(toMedia(await tenancy.updateMedia(req.principal.mediaId, req.body))),
  });

  const workspaceTags = ['Core: Workspaces'];

  app.get('/workspaces', {
    config: { permission: 'core:read' },
    schema: {
      tags: workspaceTags,
      summary: 'List workspaces',
      querystring: pagingQuery,
      response: { 200: listOf(workspaceSchema), ...errorResponses(400, 401, 403, 429) },
    },
    handler: async (req) => list(req, await tenancy.listWorkspaces(req.principal.mediaId, req.query), toWorkspace),
  });

  app.post('/workspaces', {
    config: { permission: 'core:write' },
    schema: {
      tags: workspaceTags,
      summary: 'Create a workspace',
      body: workspaceCreateBody,
      response: { 201: dataOf(workspaceSchema), ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
    },
    handler: async (req, reply) =>
      reply.status(201).send(one(toWorkspace(await tenancy.createWorkspace(req.principal.mediaId, req.body)))),
  });

  app.get('/workspaces/:id', {
    config: { permission: 'core:read' },
    schema: {
      tags: workspaceTags,
      summary: 'Workspace by id',
      params: idParams,
      response: { 200: dataOf(workspaceSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => one(toWorkspace(await tenancy.getWorkspace(req.principal.mediaId, req.params.id))),
  });

  app.patch('/workspaces/:id', {
    config: { permission: 'core:write' },
    schema: {
      tags: workspaceTags,
      summary: 'Update a workspace',
      params: idParams,
      body: workspaceUpdateBody,
      response: { 200: dataOf(workspaceSchema), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429) },
    },
    handler: async (req) =>
      one(toWorkspace(await tenancy.updateWorkspace(req.principal.mediaId, req.params.id, req.body))),
  });

  const statusTags = ['Core: Statuses'];

  app.get('/statuses', {
    config: { permission: 'core:read' },
    schema: {
      tags: statusTags,
      summary: 'List statuses',
      description: 'Every media starts with draft, published and unpublished.',
      querystring: pagingQuery,
      response: { 200: listOf(statusSchema), ...errorResponses(400, 401, 403, 429) },
    },
    handler: async (req) => list(req, await tenancy.listStatuses(req.principal.mediaId, req.query), toStatus),
  });

  app.post('/statuses', {
    config: { permission: 'core:write' },
    schema: {
      tags: statusTags,
      summary: 'Create a status',
      body: statusCreateBody,
      response: { 201: dataOf(statusSchema), ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
    },
    handler: async (req, reply) =>
      reply.status(201).send(one(toStatus(await tenancy.createStatus(req.principal.mediaId, req.body)))),
  });
};
