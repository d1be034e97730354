import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { one } from '../../../shared/envelopes.js';
import { backofficeResource, orderedSetRoutes } from '../../../shared/http/resource.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, idParams } from '../../../shared/schemas.js';
import { workspaceTransferRoute } from '../../../shared/workspace.js';
import { revisionRoutes } from '../../../shared/http/revisions.js';
import { communityTags } from '../community.tags.js';
import { profileRevisions } from './profiles.revisions.js';
import type { KindDef } from './profiles.kind.js';
import type { ProfileKind } from './profiles.kinds.js';
import { type ProfileMappers, toBlockEntry, toOccurrence, toProfileBlock, toSchedule } from './profiles.mappers.js';
import {
  blockEntriesBody,
  blockEntrySchema,
  blockParams,
  createBodyOf,
  metadataBody,
  metadataEntrySchema,
  occurrenceSchema,
  profileBlockSchema,
  profileBlockUpdateBody,
  profileBlocksBody,
  profileTypeSwitchBody,
  rangeQuery,
  recordSchemaOf,
  scheduleSchema,
  schedulesBody,
  updateBodyOf,
} from './profiles.schemas.js';
import type { ProfilesService } from './profiles.service.js';

export interface ProfilesRoutesOptions {
  profiles: ProfilesService;
  mappers: ProfileMappers;
  kinds: KindDef[];
}


/** /community/v2/{kind} for the four kinds: one declaration, looped over the kinds. */
export const profilesBackofficeRoutes: FastifyPluginAsyncZod<ProfilesRoutesOptions> = async (app, { profiles, mappers, kinds }) => {
  for (const def of kinds) {
    const kind: ProfileKind = def.kind;
    const One = def.names.one;
    const tag = communityTags[kind];
    const path = `/${kind}`;
    const record = `${path}/:id`;
    const write = 'community:write' as const;
    const read = 'community:read' as const;
    const kindName = def.record;
    // Every write of the profile, of its blocks, entries or schedules, adds a revision of the whole profile.
    const source = profileRevisions(def, profiles, mappers);
    const revises = { source };
    const ofBlock = { source, part: 'blocks' };
    const resource = backofficeResource(app, { path, names: def.names, tag, item: recordSchemaOf(def), map: mappers.toBackoffice(def), read, write, kind: kindName, lock: profiles.rows, revises });
    revisionRoutes(app, { path, names: def.names, label: One.toLowerCase(), source, tag, read, write });

    resource.list({ summary: `List ${kind}`, description: `Live ${kind} of the media, newest first.` }, (ctx, query) => profiles.list(ctx, kind, query));
    resource.create(
      {
        summary: `Create ${One.toLowerCase()}`,
        description:
          "The workspace must be one of the media (404), the status too (400), the profile type one of the media and of this kind (400); address and contact fields the profile type's has_* flags do not allow are refused (400 naming them). Categories, images and contents named must be records of the media (404).",
        body: createBodyOf(def),
        errors: [404],
      },
      (ctx, input) => profiles.create(ctx, kind, input as never),
    );
    resource.get({ summary: `${One} by id` }, (ctx, id) => profiles.get(ctx, kind, id));
    resource.update(
      {
        summary: `Update ${One.toLowerCase()}`,
        description: 'Fields left out keep their value; description, address, contact, locales and profile_categories, when sent, are the complete sets.',
        body: updateBodyOf(def),
        errors: [404],
      },
      (ctx, id, patch) => profiles.update(ctx, kind, id, patch as never),
    );
    resource.remove(
      { summary: `Delete ${One.toLowerCase()} (soft)`, description: 'Soft-deletes the record with its description, address, contact, locales, blocks and entries, with one deleted_at.' },
      (ctx, id) => profiles.remove(ctx, kind, id),
    );
    resource.restore(
      { summary: `Restore ${One.toLowerCase()}`, description: 'Brings back exactly the parts the delete took away. Idempotent.', errors: [409] },
      (ctx, id) => profiles.restore(ctx, kind, id),
    );

    orderedSetRoutes(app, {
      url: `${record}/metadata`,
      params: idParams,
      tag,
      read,
      write,
      record: { kind: kindName, revises },
      lock: profiles.rows,
      get: { operationId: `get${One}Metadata`, summary: `${One} metadata: all` },
      replace: {
        operationId: `replace${One}Metadata`,
        summary: `${One} metadata: update all`,
        description: 'Replaces the whole set, in order; values are searched on the Reader.',
        body: metadataBody,
      },
      load: (ctx, params) => profiles.metadata(ctx, kind, params.id),
      store: (ctx, params, body) => profiles.replaceMetadata(ctx, kind, params.id, body.metadata),
      item: metadataEntrySchema,
      map: (e) => ({ key: e.key, value: e.value }),
    });

    route(app, {
      method: 'POST',
      url: `${record}/profile-type/switch`,
      operationId: `switch${One}ProfileType`,
      summary: `Switch ${One} Profile Type`,
      description: 'Moves the record to another profile type of the media and of its kind (400 otherwise). Fields the new type does not allow stay stored but are no longer served.',
      tag,
      access: { permission: write },
      record: { kind: kindName, revises },
      params: idParams,
      body: profileTypeSwitchBody,
      response: { 200: dataOf(recordSchemaOf(def)) },
      handler: async (ctx, { params, body }) => one(mappers.toBackoffice(def)(await profiles.switchProfileType(ctx, kind, params.id, body.profile_type_id))),
    });

    workspaceTransferRoute(app, {
      record,
      operationId: `transfer${One}Workspace`,
      summary: `Change ${One}'s Workspace`,
      tag,
      permission: write,
      kind: kindName,
      revises,
      transfer: (ctx, id, target) => profiles.transfer(ctx, kind, id, target),
    });

    orderedSetRoutes(app, {
      url: `${record}/blocks`,
      params: idParams,
      tag,
      read,
      write,
      record: { kind: kindName, revises },
      lock: profiles.rows,
      get: { operationId: `list${One}Blocks`, summary: `${One} blocks: all` },
      replace: {
        operationId: `replace${One}Blocks`,
        summary: `${One} blocks: replace all`,
        description: 'The complete ordered set: blocks sent with their id are kept (with their entries), others created, missing ones deleted.',
        body: profileBlocksBody,
      },
      load: (ctx, params) => profiles.blocks(ctx, kind, params.id),
      store: (ctx, params, body) => profiles.replaceBlocks(ctx, kind, params.id, body.blocks),
      item: profileBlockSchema,
      map: toProfileBlock,
    });
    route(app, {
      method: 'PATCH',
      url: `${record}/blocks/:block_id`,
      operationId: `update${One}Block`,
      summary: `${One} blocks: update one`,
      description: 'Changes the key and/or the titles (the complete set of languages) of one block.',
      tag,
      access: { permission: write },
      record: { kind: 'block', param: 'block_id', revises: ofBlock },
      version: { read: `list${One}Blocks`, lock: profiles.rows },
      params: blockParams,
      body: profileBlockUpdateBody,
      response: { 200: dataOf(profileBlockSchema) },
      handler: async (ctx, { params, body }) => one(toProfileBlock(await profiles.updateBlock(ctx, kind, params.id, params.block_id, body))),
    });
    orderedSetRoutes(app, {
      url: `${record}/blocks/:block_id/entries`,
      params: blockParams,
      tag,
      read,
      write,
      record: { kind: 'block', param: 'block_id', revises: ofBlock },
      lock: profiles.rows,
      get: { operationId: `list${One}BlockEntries`, summary: `${One} block entries: all`, description: 'The entries of a block (spec 2.14), in order.' },
      replace: {
        operationId: `replace${One}BlockEntries`,
        summary: `${One} block entries: replace all`,
        description: 'The complete ordered set. content_id must be a content of the media, relation_id a profile of the media (404 naming the entry otherwise).',
        body: blockEntriesBody,
        errors: [404],
      },
      load: (ctx, params) => profiles.entries(ctx, kind, params.id, params.block_id),
      store: (ctx, params, body) => profiles.replaceEntries(ctx, kind, params.id, params.block_id, body.entries),
      item: blockEntrySchema,
      map: toBlockEntry,
    });

    if (kind !== 'events') continue;
    orderedSetRoutes(app, {
      url: `${record}/schedules`,
      params: idParams,
      tag,
      read,
      write,
      record: { kind: 'event', revises },
      lock: profiles.rows,
      get: { operationId: 'listEventSchedules', summary: 'Event schedules: all' },
      replace: {
        operationId: 'replaceEventSchedules',
        summary: 'Event schedules: replace all',
        description:
          "Each schedule is one dated slot (`starts_at`, `ends_at`) or a recurrence (`starts_local`, a wall-clock time in the event's time zone, an RFC 5545 `rrule` without DTSTART, and `duration_minutes`).",
        body: schedulesBody,
      },
      load: (ctx, params) => profiles.schedules(ctx, params.id),
      store: (ctx, params, body) => profiles.replaceSchedules(ctx, params.id, body.schedules),
      item: scheduleSchema,
      map: toSchedule,
    });
    route(app, {
      method: 'GET',
      url: `${record}/occurrences`,
      operationId: 'listEventOccurrences',
      summary: 'Event occurrences',
      description: "The event's schedules expanded within `from`..`to` (at most a year), by start; recurrences keep their wall-clock time across daylight-saving changes.",
      tag,
      access: { permission: read },
      params: idParams,
      querystring: rangeQuery,
      response: { 200: dataOf(z.array(occurrenceSchema)) },
      handler: async (ctx, { params, query }) => one((await profiles.occurrences(ctx, params.id, query.from, query.to)).map(toOccurrence)),
    });
  }
};

