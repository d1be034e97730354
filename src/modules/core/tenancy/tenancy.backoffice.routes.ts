import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { backofficeResource } from '../../../shared/http/resource.js';
import { route } from '../../../shared/http/route.js';
import { dataOf } from '../../../shared/schemas.js';
import { coreTags } from '../core.tags.js';
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
  route(app, {
    method: 'GET',
    url: '/media',
    operationId: 'getMedia',
    summary: "The key's own media",
    tag: coreTags.media,
    access: { permission: 'core:read' },
    response: { 200: dataOf(mediaSchema) },
    handler: async (ctx) => one(toMedia(await tenancy.getMedia(ctx))),
  });

  route(app, {
    method: 'PATCH',
    url: '/media',
    operationId: 'updateMedia',
    record: { kind: 'media' },
    version: { read: 'getMedia' },
    summary: "Update the key's own media",
    tag: coreTags.media,
    access: { permission: 'admin:write' },
    body: mediaUpdateBody,
    response: { 200: dataOf(mediaSchema) },
    handler: async (ctx, { body }) => one(toMedia(await tenancy.updateMedia(ctx, body))),
  });

  const workspaces = backofficeResource(app, {
    path: '/workspaces',
    kind: 'workspace',
    names: { one: 'Workspace', many: 'Workspaces' },
    tag: coreTags.workspaces,
    item: workspaceSchema,
    map: toWorkspace,
    read: 'core:read',
    write: 'core:write',
  });
  workspaces.list({ summary: 'List workspaces' }, tenancy.listWorkspaces);
  workspaces.create({ summary: 'Create a workspace', body: workspaceCreateBody, errors: [409] }, tenancy.createWorkspace);
  workspaces.get({ summary: 'Workspace by id' }, tenancy.getWorkspace);
  workspaces.update({ summary: 'Update a workspace', body: workspaceUpdateBody, errors: [409] }, tenancy.updateWorkspace);

  const statuses = backofficeResource(app, {
    path: '/statuses',
    kind: 'status',
    names: { one: 'Status', many: 'Statuses' },
    tag: coreTags.statuses,
    item: statusSchema,
    map: toStatus,
    read: 'core:read',
    write: 'core:write',
  });
  statuses.list(
    { summary: 'List statuses', description: 'Every media starts with draft, published and unpublished.' },
    tenancy.listStatuses,
  );
  statuses.create({ summary: 'Create a status', body: statusCreateBody, errors: [409] }, tenancy.createStatus);
};
