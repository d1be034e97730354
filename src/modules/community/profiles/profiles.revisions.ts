import { z } from 'zod';
import { oncePer } from '../../../shared/schemas.js';
import type { RevisionSource } from '../../../shared/revisions.js';
import { communityErrors } from '../community.errors.js';
import type { KindDef } from './profiles.kind.js';
import { type ProfileMappers, toBlockEntry, toProfileBlock, toSchedule } from './profiles.mappers.js';
import { blockEntrySchema, profileBlockSchema, recordSchemaOf, scheduleSchema } from './profiles.schemas.js';
import type { ProfilesService } from './profiles.service.js';

/** A profile's revision record: made once per kind (a component id is registered once). */
const revisionRecordOf = oncePer((def: KindDef) =>
  recordSchemaOf(def)
    .extend({
      blocks: z.array(profileBlockSchema.extend({ entries: z.array(blockEntrySchema) })),
      ...(def.kind === 'events' && { schedules: z.array(scheduleSchema) }),
    })
    .meta({ id: `${def.names.one}RevisionRecord` }),
);

/**
 * The revisions of a profile kind: its Backoffice shape with its blocks (each with its entries)
 * and, for events, its schedules; the whole profile tree's rows.
 */
export function profileRevisions(def: KindDef, profiles: ProfilesService, mappers: ProfileMappers): RevisionSource {
  const events = def.kind === 'events';
  const toWire = mappers.toBackoffice(def);
  return {
    kind: def.record,
    schema: revisionRecordOf(def),
    keys: { locales: 'locale', profile_categories: 'category_id', metadata: 'key', blocks: 'id', 'blocks.locales': 'locale', 'blocks.entries': 'id', schedules: 'id' },
    rows: profiles.revisionRows,
    notFound: communityErrors.profileNotFound,
    load: async (ctx, id) => {
      const wire = toWire(await profiles.get(ctx, def.kind, id)) as Record<string, unknown>;
      const blocks = (await profiles.blocks(ctx, def.kind, id)).map((b) => ({ ...toProfileBlock(b), entries: b.entries.map(toBlockEntry) }));
      return { ...wire, blocks, ...(events && { schedules: (await profiles.schedules(ctx, id)).map(toSchedule) }) };
    },
  };
}
