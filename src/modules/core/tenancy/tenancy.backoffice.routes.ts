import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { backofficeResource } from '../../../shared/resource-routes.js';
import { dataOf, errorResponses } from '../../../shared/schemas.js';
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

  const workspaces = backofficeResource(app, {
    path: '/workspaces',
    tags: ['Core: Workspaces'],
    item: workspaceSchema,
    map: toWorkspace,
    read: 'core:read',
    write: 'core:write',
  });
  workspaces.list({ summary: 'List workspaces' }, tenancy.listWorkspaces);
  workspaces.create({ summary: 'Create a workspace', body: workspaceCreateBody, also: [409] }, tenancy.createWorkspace);
  workspaces.get({ summary: 'Workspace by id' }, tenancy.getWorkspace);
  workspaces.update({ summary: 'Update a workspace', body: workspaceUpdateBody, also: [409] }, tenancy.updateWorkspace);

  const statuses = backofficeResource(app, {
    path: '/statuses',
    tags: ['Core: Statuses'],
    item: statusSchema,
    map: toStatus,
    read: 'core:read',
    write: 'core:write',
  });
  statuses.list(
    { summary: 'List statuses', description: 'Every media starts with draft, published and unpublished.' },
    tenancy.listStatuses,
  );
  statuses.create({ summary: 'Create a status', body: statusCreateBody, also: [409] }, tenancy.createStatus);
};
