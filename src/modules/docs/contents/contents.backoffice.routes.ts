import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { one } from '../../../shared/envelopes.js';
import { backofficeResource, orderedSetRoutes } from '../../../shared/http/resource.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, idParams, noContent } from '../../../shared/schemas.js';
import { workspaceTransferRoute } from '../../../shared/workspace.js';
import { docsTags } from '../docs.tags.js';
import type { ContentMappers } from './contents.mappers.js';
import {
  blockCreateBody,
  blockParams,
  blockUpdateBody,
  blocksQuery,
  contentBlockSchema,
  contentCreateBody,
  contentSchema,
  contentUpdateBody,
  contentsQuery,
  metadataBody,
  metadataEntrySchema,
  templateSwitchBody,
} from './contents.schemas.js';
import type { ContentsService } from './contents.service.js';
import { contentAggregate } from './contents.repository.js';
import { contentRevisions } from './contents.revisions.js';
import { revisionRoutes } from '../../../shared/http/revisions.js';

export const contentsBackofficeRoutes: FastifyPluginAsyncZod<{ contents: ContentsService; mappers: ContentMappers }> = async (
  app,
  { contents, mappers },
) => {
  const { toBackofficeContent, toContentBlock } = mappers;
  // Every write of a content, or of one of its blocks, adds a revision of the whole content.
  const source = contentRevisions(contents, mappers);
  const revises = { source };
  const ofBlock = { source, part: 'locales.blocks' };
  const resource = backofficeResource(app, {
    revises,
    path: '/contents',
    kind: 'content',
    lock: contentAggregate,
    names: { one: 'Content', many: 'Contents' },
    tag: docsTags.contents,
    item: contentSchema,
    map: toBackofficeContent,
    read: 'docs:read',
    write: 'docs:write',
  });

  resource.list(
    {
      summary: 'List contents',
      description:
        'Live contents of the media with their live language entries, newest first by `sort` (inserted_at, updated_at or published_at), filtered by workspace, status, template, category, locale, archive flag and update time.',
      querystring: contentsQuery,
    },
    contents.list,
  );
  resource.create(
    {
      summary: 'Create a content',
      description:
        'The template, categories and visual images must be records of the media (404 naming the field otherwise); the workspace too (404), the status as well (400).',
      body: contentCreateBody,
      errors: [404],
    },
    contents.create,
  );
  resource.get({ summary: 'Content by id' }, contents.get);
  resource.update(
    {
      summary: 'Update a content',
      description:
        'Fields left out keep their value. `locales` and `content_categories`, when sent, are the complete sets; an entry left out is deleted. The workspace changes by transfer, the template by switch.',
      body: contentUpdateBody,
      errors: [404],
    },
    contents.update,
  );
  resource.remove(
    {
      summary: 'Delete a content (soft)',
      description: 'Sets deleted_at on the content, its live language entries and their live blocks, with one timestamp.',
    },
    contents.remove,
  );
  resource.restore(
    {
      summary: 'Restore a deleted content',
      description: 'Brings back exactly what the delete took away; entries and blocks deleted on their own before stay deleted. Idempotent.',
      errors: [409],
    },
    contents.restore,
  );

  route(app, {
    method: 'POST',
    url: '/contents/:id/template/switch',
    operationId: 'switchContentTemplate',
    summary: 'Switch Content Template',
    description:
      'Moves the content to another template of the media. Blocks and metadata keys the new template does not allow are refused with 409 `template_incompatible` listing them in `details`, or removed when `drop_incompatible` is true.',
    tag: docsTags.contents,
    access: { permission: 'docs:write' },
    record: { kind: 'content', revises },
    params: idParams,
    body: templateSwitchBody,
    response: { 200: dataOf(contentSchema) },
    errors: [409],
    handler: async (ctx, { params, body }) => one(toBackofficeContent(await contents.switchTemplate(ctx, params.id, body))),
  });

  workspaceTransferRoute(app, {
    record: '/contents/:id',
    operationId: 'transferContentWorkspace',
    summary: "Change Content's Workspace",
    tag: docsTags.contents,
    permission: 'docs:write',
    kind: 'content',
    revises,
    transfer: contents.transfer,
  });

  orderedSetRoutes(app, {
    url: '/contents/:id/metadata',
    params: idParams,
    tag: docsTags.contentMetadata,
    read: 'docs:read',
    write: 'docs:write',
    record: { kind: 'content', revises },
    lock: contentAggregate,
    get: { operationId: 'getContentMetadata', summary: 'Content metadata: all' },
    replace: {
      operationId: 'replaceContentMetadata',
      summary: 'Content metadata: update all',
      description: "Replaces the whole set, in order. Every key must be one of the template's `metadata_keys` (400 otherwise).",
      body: metadataBody,
    },
    load: (ctx, params) => contents.metadata(ctx, params.id),
    store: (ctx, params, body) => contents.replaceMetadata(ctx, params.id, body),
    item: metadataEntrySchema,
    map: (m) => ({ key: m.key, value: m.value }),
  });

  route(app, {
    method: 'GET',
    url: '/contents/:id/blocks',
    operationId: 'listContentBlocks',
    summary: 'Content blocks: all by content id',
    description: "The live blocks of the content's live language entries, by locale then position.",
    tag: docsTags.contentBlocks,
    access: { permission: 'docs:read' },
    params: idParams,
    querystring: blocksQuery,
    response: { 200: dataOf(z.array(contentBlockSchema)) },
    handler: async (ctx, { params, query }) => one((await contents.blocks(ctx, params.id, query.locale)).map(toContentBlock)),
  });

  route(app, {
    method: 'POST',
    url: '/contents/:id/blocks',
    operationId: 'createContentBlock',
    summary: 'Content blocks: create in a content locale',
    description:
      "Adds a block to the entry of `locale` (404 `locale_not_found` when the content has none), at `position` (the blocks from there move down) or at the end. Its kind must be one of the template's `block_kinds` (400); images and related contents must be records of the media (404).",
    tag: docsTags.contentBlocks,
    access: { permission: 'docs:write' },
    record: { kind: 'block', revises: ofBlock },
    params: idParams,
    body: blockCreateBody,
    response: { 201: dataOf(contentBlockSchema) },
    errors: [404],
    handler: async (ctx, { params, body }) => one(toContentBlock(await contents.createBlock(ctx, params.id, body))),
  });

  route(app, {
    method: 'PATCH',
    url: '/contents/:id/blocks/:block_id',
    operationId: 'updateContentBlock',
    summary: 'Content blocks: update',
    description:
      "Moves the block to `position` (the others close ranks), and/or rewrites it: send its `kind` with all of that kind's fields. A question keeps the ids (and votes) of the choices sent back with their `id`.",
    tag: docsTags.contentBlocks,
    access: { permission: 'docs:write' },
    record: { kind: 'block', param: 'block_id', revises: ofBlock },
    version: { read: 'listContentBlocks', lock: contentAggregate },
    params: blockParams,
    body: blockUpdateBody,
    response: { 200: dataOf(contentBlockSchema) },
    handler: async (ctx, { params, body }) => one(toContentBlock(await contents.updateBlock(ctx, params.id, params.block_id, body))),
  });

  route(app, {
    method: 'DELETE',
    url: '/contents/:id/blocks/:block_id',
    operationId: 'deleteContentBlock',
    summary: 'Content blocks: remove',
    description: 'Soft-deletes the block on its own (restoring the content does not bring it back); the blocks after it move up.',
    tag: docsTags.contentBlocks,
    access: { permission: 'docs:write' },
    record: { kind: 'block', param: 'block_id', revises: ofBlock },
    version: { read: 'listContentBlocks', lock: contentAggregate },
    params: blockParams,
    response: { 204: noContent },
    handler: async (ctx, { params }, reply) => {
      await contents.removeBlock(ctx, params.id, params.block_id);
      reply.status(204);
    },
  });

  revisionRoutes(app, { path: '/contents', names: { one: 'Content' }, label: 'content', source, tag: docsTags.contents, read: 'docs:read', write: 'docs:write' });
};
