import { aggregateRows } from '../../../shared/revisions.js';
import { sql } from 'drizzle-orm';
import type { Db, Executor } from '../../../db/client.js';
import { blockReferences, storeBlock } from '../../../shared/blocks.js';
import type { ErrorDetail } from '../../../shared/errors.js';
import { type RequestContext, transaction } from '../../../shared/context.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import type { ReaderPrincipal } from '../../../shared/scopes.js';
import { searchConfigOf, searchConfigsOf } from '../../../shared/search.js';
import { type WorkspaceTransfer, assertPlacement, transferToWorkspace } from '../../../shared/workspace.js';
import { mediaPlaces } from '../../core/index.js';
import { communityErrors } from '../community.errors.js';
import { boundsOf, expand } from '../events/events.schedules.js';
import type { ProfileTypesRepository } from '../profile-types/profile-types.repository.js';
import type { KindDef } from './profiles.kind.js';
import { type ProfileKind, SINGULAR } from './profiles.kinds.js';
import { liveProfileIds, publishedProfileIds } from './profiles.lookup.js';
import type { ProfilesRepository } from './profiles.repository.js';
import {
  ADDRESS_FIELDS,
  CONTACT_FIELDS,
  type ProfileInput,
  type ReaderProfilesQuery,
  type ScheduleInput,
} from './profiles.schemas.js';
import { profiles } from './profiles.table.js';
import { rowsOf } from '../../../db/rows.js';

/** What community needs of other modules, injected by the container. */
export interface ProfilesDeps {
  assertLocales(ctx: RequestContext, entries: Array<{ locale: string }>, path?: string): Promise<void>;
  missingCategories(executor: Executor, mediaId: string, ids: string[]): Promise<string[]>;
  missingAssetImages(executor: Executor, mediaId: string, ids: string[]): Promise<string[]>;
  /** A live asset image of the media by file key, else a 404 (cover and profile images name one). */
  imageByKey(ctx: RequestContext, fileKey: string): Promise<unknown>;
  /** The ids among `ids` that are live contents of the media (docs' public lookup; block entries name contents). */
  liveContentIds(executor: Executor, mediaId: string, ids: string[]): Promise<Set<string>>;
  /** The ids among `ids` that are contents of the media readers may see now (a Reader block shows only those). */
  publishedContentIds(executor: Executor, mediaId: string, ids: string[]): Promise<Set<string>>;
}

const placed = {
  table: profiles,
  id: profiles.id,
  owner: profiles.mediaId,
  workspaceId: profiles.workspaceId,
  statusId: profiles.statusId,
  updatedAt: profiles.updatedAt,
  deletedAt: profiles.deletedAt,
};

const domainOf = (url: string | null | undefined) => (url ? new URL(url).host : url);
const hasFlag = (type: Record<string, unknown>, field: string) => type[`has${field[0]!.toUpperCase()}${field.slice(1)}`] === true;

/**
 * Profiles of the four kinds. Every method given a context reads and writes on its executor
 * (`ctx.db`, or the transaction `transaction(ctx, …)` joins or opens); `deps.db` serves only the
 * reads made without one: a Public path's media (`mediaOf`) and another module's check of a
 * favorite (`assertPublished`).
 */
export function createProfilesService(deps: { db: Db; repo: ProfilesRepository; profileTypes: ProfileTypesRepository; kinds: Record<ProfileKind, KindDef>; core: ProfilesDeps }) {
  const { db, repo, core, kinds } = deps;
  /** The contents among `ids` that are not live contents of the media. */
  const missingContents = async (executor: Executor, mediaId: string, ids: string[]): Promise<string[]> => {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const live = await core.liveContentIds(executor, mediaId, unique);
    return unique.filter((id) => !live.has(id));
  };

  const load = async (executor: Executor, mediaId: string, kind: ProfileKind, id: string, view?: 'published') => {
    const row = await repo.find(executor, mediaId, id, view);
    if (!row || row.kind !== SINGULAR[kind]) throw communityErrors.profileNotFound();
    return row;
  };
  const loadTree = async (executor: Executor, mediaId: string, kind: ProfileKind, id: string, view?: 'published') => {
    const row = await repo.findTree(executor, mediaId, id, view);
    if (!row || row.kind !== SINGULAR[kind]) throw communityErrors.profileNotFound();
    return row;
  };
  /** Locks the live profile of that kind for the transaction; 404 otherwise. */
  const lock = async (tx: Executor, mediaId: string, kind: ProfileKind, id: string) => {
    if (!(await repo.tree.lock(tx, id, mediaId))) throw communityErrors.profileNotFound();
    const row = await loadTree(tx, mediaId, kind, id);
    return row;
  };

  /** A live profile type of the media and of the kind; a 400 naming `path` otherwise. */
  const profileTypeOf = async (tx: Executor, mediaId: string, kind: ProfileKind, id: string, path: string) => {
    const type = await deps.profileTypes.find(tx, mediaId, id);
    if (!type) throw communityErrors.invalid('invalid_profile_type', 'profile_type_id is not a profile type of this media', [{ path, message: 'is not a profile type of this media' }]);
    if (type.kind !== SINGULAR[kind]) {
      throw communityErrors.invalid('invalid_profile_type', `the profile type is not one of ${kind}`, [
        { path, message: `is a profile type of kind ${type.kind}, not ${SINGULAR[kind]}` },
      ]);
    }
    return type as unknown as Record<string, unknown> & { id: string };
  };

  /** 400 naming each address or contact field the profile type does not allow. */
  const assertFlags = (type: Record<string, unknown>, input: ProfileInput) => {
    const details: ErrorDetail[] = [];
    const check = (set: 'address' | 'contact', fields: readonly string[]) =>
      (input[set] ?? []).forEach((entry, i) => {
        for (const f of fields) {
          const value = (entry as Record<string, unknown>)[f];
          if (value !== undefined && value !== null && !hasFlag(type, f)) details.push({ path: `${set}.${i}.${f}`, message: `is not allowed by the profile type (has_${f} is false)` });
        }
      });
    check('address', ADDRESS_FIELDS);
    check('contact', CONTACT_FIELDS);
    if (details.length > 0) throw communityErrors.invalid('field_not_allowed', 'the profile type does not allow these fields', details);
  };

  /** 404 naming each referenced category, image or content not in the media. */
  const assertExist = async (tx: Executor, mediaId: string, input: ProfileInput) => {
    const check = async (wanted: Array<{ id: string; path: string }>, missing: (ids: string[]) => Promise<string[]>, code: `${string}_not_found`, what: string) => {
      if (wanted.length === 0) return;
      const gone = new Set(await missing([...new Set(wanted.map((w) => w.id))]));
      const details = wanted.filter((w) => gone.has(w.id)).map((w) => ({ path: w.path, message: `is not ${what} of this media` }));
      if (details.length > 0) throw communityErrors.referenceNotFound(code, `${what} is not in this media`, details);
    };
    const categories = (input.profile?.profile_categories ?? []).map((c, i) => ({ id: c.category_id, path: `profile.profile_categories.${i}.category_id` }));
    await check(categories, (ids) => core.missingCategories(tx, mediaId, ids), 'category_not_found', 'a category');
    const images: Array<{ id: string; path: string }> = [];
    const contents: Array<{ id: string; path: string }> = [];
    const profileRefs: Array<{ id: string; path: string }> = [];
    (input.description ?? []).forEach((d, i) =>
      d.blocks.forEach((b, j) => {
        const refs = blockReferences(storeBlock(b));
        refs.assetImageIds.forEach((id) => images.push({ id, path: `description.${i}.blocks.${j}` }));
        refs.contentIds.forEach((id, k) => contents.push({ id, path: `description.${i}.blocks.${j}.content_ids.${k}` }));
        refs.profileIds.forEach((id, k) => profileRefs.push({ id, path: `description.${i}.blocks.${j}.profile_ids.${k}` }));
      }),
    );
    await check(images, (ids) => core.missingAssetImages(tx, mediaId, ids), 'asset_image_not_found', 'an asset image');
    await check(contents, (ids) => missingContents(tx, mediaId, ids), 'content_not_found', 'a content');
    await check(profileRefs, async (ids) => {
      const live = await liveProfileIds(tx, mediaId, null, ids);
      return ids.filter((id) => !live.has(id));
    }, 'profile_not_found', 'a profile');
  };

  const assertLocales = async (ctx: RequestContext, input: ProfileInput) => {
    for (const set of ['description', 'address', 'contact', 'locales'] as const) {
      if (input[set]) await core.assertLocales(ctx, input[set], set);
    }
  };

  /** Writes the parts a body carries (each a complete set), then the search entries. */
  const writeParts = async (tx: Executor, mediaId: string, id: string, input: ProfileInput) => {
    if (input.profile?.profile_categories) {
      await repo.tree.replace(tx, 'categories', id, input.profile.profile_categories.map((c) => ({ categoryId: c.category_id })));
    }
    if (input.description) {
      await repo.tree.replace(tx, 'description', id, input.description.map((d) => ({ locale: d.locale })));
      const live = (await loadLiveDescription(tx, id)) as Map<string, string>;
      for (const d of input.description) {
        await repo.tree.replace(tx, 'description.blocks', live.get(d.locale)!, d.blocks.map((b) => ({ locale: d.locale, ...storeBlock(b) })));
      }
    }
    const byLocale = <T extends { locale: string }>(entries: T[], fields: readonly string[]) =>
      entries.map((e) => ({ locale: e.locale, ...Object.fromEntries(fields.map((f) => [f, (e as Record<string, unknown>)[f] ?? null])) }));
    if (input.address) await repo.tree.replace(tx, 'address', id, byLocale(input.address, ADDRESS_FIELDS));
    if (input.contact) await repo.tree.replace(tx, 'contact', id, byLocale(input.contact, CONTACT_FIELDS));
    if (input.locales) {
      await repo.tree.replace(
        tx,
        'locales',
        id,
        input.locales.map((l) => ({
          mediaId,
          locale: l.locale,
          summaryHtml: l.summary_html?.html ?? null,
          summaryText: l.summary_html?.text ?? null,
          descriptionHtml: l.description_html?.html ?? null,
          descriptionText: l.description_html?.text ?? null,
          searchConfig: searchConfigOf(l.locale),
        })),
      );
    }
    await repo.refreshSearch(tx, id);
  };

  const loadLiveDescription = async (tx: Executor, id: string) => {
    const rows = await tx.execute(sql`select id, locale from profile_descriptions where profile_id = ${id} and deleted_at is null`);
    const list = rowsOf<{ id: string; locale: string }>(rows);
    return new Map(list.map((r) => [r.locale, r.id]));
  };

  /** Cover and profile images name live asset images of the media by file key (404 otherwise). */
  const assertImages = async (ctx: RequestContext, input: ProfileInput) => {
    for (const key of [input.cover_image_key, input.profile_image_key]) if (key) await core.imageByKey(ctx, key);
  };

  const ownColumns = (kind: ProfileKind, input: ProfileInput) => kinds[kind].columns(input);

  const blockOf = async (tx: Executor, mediaId: string, kind: ProfileKind, id: string, blockId: string, view?: 'published') => {
    const tree = await loadTree(tx, mediaId, kind, id, view);
    const block = tree.blocks.find((b) => b.id === blockId);
    if (!block) throw communityErrors.blockNotFound();
    return { tree, block };
  };

  const readerOf = (ctx: RequestContext) => (ctx.principal as ReaderPrincipal).subject;

  return {
    /** The profile's row, locked by a conditional write while If-Match is compared. */
    rows: { lock: (tx: Executor, id: string, mediaId: string) => repo.tree.lock(tx, id, mediaId) },
    /** The whole profile tree's rows, as its revisions keep them. */
    revisionRows: aggregateRows(repo.tree),
    list: (ctx: RequestContext, kind: ProfileKind, query: PagingQuery) => repo.list(ctx.db, ctx.mediaId, kind, query),

    get: (ctx: RequestContext, kind: ProfileKind, id: string) => load(ctx.db, ctx.mediaId, kind, id),

    async create(ctx: RequestContext, kind: ProfileKind, input: ProfileInput & { profile: NonNullable<ProfileInput['profile']> & { workspace_id: string; profile_type_id: string; status_id: string } }) {
      await assertLocales(ctx, input);
      await assertImages(ctx, input);
      return transaction(ctx, async (tx) => {
        await assertPlacement(tx, mediaPlaces, ctx.mediaId, { workspaceId: input.profile.workspace_id, statusId: input.profile.status_id });
        const type = await profileTypeOf(tx, ctx.mediaId, kind, input.profile.profile_type_id, 'profile.profile_type_id');
        assertFlags(type, input);
        await assertExist(tx, ctx.mediaId, input);
        const id = await repo.insert(tx, {
          mediaId: ctx.mediaId,
          kind: SINGULAR[kind],
          workspaceId: input.profile.workspace_id,
          statusId: input.profile.status_id,
          profileTypeId: type.id,
          canonicalUrl: input.profile.canonical_url ?? null,
          canonicalDomain: domainOf(input.profile.canonical_url) ?? null,
          coverImageKey: input.cover_image_key ?? null,
          profileImageKey: input.profile_image_key ?? null,
          ...(kind === 'events' && { registrationOpen: false, timeZone: 'UTC' }),
          ...ownColumns(kind, input),
        });
        await writeParts(tx, ctx.mediaId, id, input);
        return load(tx, ctx.mediaId, kind, id);
      });
    },

    async update(ctx: RequestContext, kind: ProfileKind, id: string, patch: ProfileInput) {
      await assertLocales(ctx, patch);
      await assertImages(ctx, patch);
      return transaction(ctx, async (tx) => {
        const current = await lock(tx, ctx.mediaId, kind, id);
        if (patch.profile?.status_id) await assertPlacement(tx, mediaPlaces, ctx.mediaId, { statusId: patch.profile.status_id });
        const type = await profileTypeOf(tx, ctx.mediaId, kind, current.profileTypeId, 'profile.profile_type_id');
        assertFlags(type, patch);
        await assertExist(tx, ctx.mediaId, patch);
        const p = patch.profile;
        await repo.update(tx, id, {
          ...(p?.status_id !== undefined && { statusId: p.status_id }),
          ...(p?.canonical_url !== undefined && { canonicalUrl: p.canonical_url, canonicalDomain: domainOf(p.canonical_url) }),
          ...(patch.cover_image_key !== undefined && { coverImageKey: patch.cover_image_key }),
          ...(patch.profile_image_key !== undefined && { profileImageKey: patch.profile_image_key }),
          ...ownColumns(kind, patch),
        });
        await writeParts(tx, ctx.mediaId, id, patch);
        return load(tx, ctx.mediaId, kind, id);
      });
    },

    async remove(ctx: RequestContext, kind: ProfileKind, id: string): Promise<void> {
      await transaction(ctx, async (tx) => {
        await lock(tx, ctx.mediaId, kind, id);
        await repo.tree.softDelete(tx, id, ctx.mediaId);
      });
    },

    restore: (ctx: RequestContext, kind: ProfileKind, id: string) =>
      transaction(ctx, async (tx) => {
        const [row] = await tx.select({ kind: profiles.kind }).from(profiles).where(sql`${profiles.id} = ${id} and ${profiles.mediaId} = ${ctx.mediaId}`);
        if (!row || row.kind !== SINGULAR[kind]) throw communityErrors.profileNotFound();
        await repo.tree.restore(tx, id, ctx.mediaId);
        return load(tx, ctx.mediaId, kind, id);
      }),

    async transfer(ctx: RequestContext, kind: ProfileKind, id: string, target: WorkspaceTransfer): Promise<void> {
      await transaction(ctx, async (tx) => {
        await lock(tx, ctx.mediaId, kind, id);
        await transferToWorkspace(tx, placed, mediaPlaces, id, ctx.mediaId, target);
      });
    },

    /** Moves the profile to another profile type of its kind; fields the new type does not allow stay stored but are no longer served. */
    switchProfileType: (ctx: RequestContext, kind: ProfileKind, id: string, profileTypeId: string) =>
      transaction(ctx, async (tx) => {
        await lock(tx, ctx.mediaId, kind, id);
        const type = await profileTypeOf(tx, ctx.mediaId, kind, profileTypeId, 'profile_type_id');
        await repo.update(tx, id, { profileTypeId: type.id });
        return load(tx, ctx.mediaId, kind, id);
      }),

    metadata: async (ctx: RequestContext, kind: ProfileKind, id: string) => (await load(ctx.db, ctx.mediaId, kind, id)).metadata,

    replaceMetadata: (ctx: RequestContext, kind: ProfileKind, id: string, metadata: Array<{ key: string; value: string }>) =>
      transaction(ctx, async (tx) => {
        await lock(tx, ctx.mediaId, kind, id);
        await repo.tree.replace(tx, 'metadata', id, metadata.map((m) => ({ key: m.key, value: m.value })));
        await repo.update(tx, id, {});
        await repo.refreshSearch(tx, id);
        return (await load(tx, ctx.mediaId, kind, id)).metadata;
      }),

    blocks: async (ctx: RequestContext, kind: ProfileKind, id: string) => (await loadTree(ctx.db, ctx.mediaId, kind, id)).blocks,

    /** Replaces the profile's blocks: entries with an id are kept (with their entries), others created, missing ones removed. */
    replaceBlocks: (ctx: RequestContext, kind: ProfileKind, id: string, blocks: Array<{ id?: string | undefined; key: string; locales: Array<{ locale: string; title: string }> }>) =>
      transaction(ctx, async (tx) => {
        await lock(tx, ctx.mediaId, kind, id);
        for (const [i, b] of blocks.entries()) await core.assertLocales(ctx, b.locales, `blocks.${i}.locales`);
        await repo.tree.replace(tx, 'blocks', id, blocks.map((b) => ({ ...(b.id && { id: b.id }), key: b.key })));
        const written = (await loadTree(tx, ctx.mediaId, kind, id)).blocks;
        for (const [i, b] of blocks.entries()) await repo.tree.replace(tx, 'blocks.locales', written[i]!.id, b.locales);
        await repo.update(tx, id, {});
        return (await loadTree(tx, ctx.mediaId, kind, id)).blocks;
      }),

    updateBlock: (ctx: RequestContext, kind: ProfileKind, id: string, blockId: string, patch: { key?: string | undefined; locales?: Array<{ locale: string; title: string }> | undefined }) =>
      transaction(ctx, async (tx) => {
        await lock(tx, ctx.mediaId, kind, id);
        const { tree } = await blockOf(tx, ctx.mediaId, kind, id, blockId);
        if (patch.locales) await core.assertLocales(ctx, patch.locales);
        if (patch.key) await repo.tree.replace(tx, 'blocks', id, tree.blocks.map((b) => ({ id: b.id, key: b.id === blockId ? patch.key : b.key })));
        if (patch.locales) await repo.tree.replace(tx, 'blocks.locales', blockId, patch.locales);
        await repo.update(tx, id, {});
        return (await blockOf(tx, ctx.mediaId, kind, id, blockId)).block;
      }),

    entries: async (ctx: RequestContext, kind: ProfileKind, id: string, blockId: string) => (await blockOf(ctx.db, ctx.mediaId, kind, id, blockId)).block.entries,

    replaceEntries: (ctx: RequestContext, kind: ProfileKind, id: string, blockId: string, entries: Array<{ id?: string | undefined; content_id: string; relation_id?: string | null | undefined }>) =>
      transaction(ctx, async (tx) => {
        await lock(tx, ctx.mediaId, kind, id);
        await blockOf(tx, ctx.mediaId, kind, id, blockId);
        const gone = new Set(await missingContents(tx, ctx.mediaId, entries.map((e) => e.content_id)));
        const relations = entries.flatMap((e) => (e.relation_id ? [e.relation_id] : []));
        const live = await liveProfileIds(tx, ctx.mediaId, null, relations);
        const details: ErrorDetail[] = entries.flatMap((e, i) => [
          ...(gone.has(e.content_id) ? [{ path: `entries.${i}.content_id`, message: 'is not a content of this media' }] : []),
          ...(e.relation_id && !live.has(e.relation_id) ? [{ path: `entries.${i}.relation_id`, message: 'is not a profile of this media' }] : []),
        ]);
        if (details.length > 0) throw communityErrors.referenceNotFound('reference_not_found', 'an entry names a record that is not in this media', details);
        await repo.tree.replace(tx, 'blocks.entries', blockId, entries.map((e) => ({ ...(e.id && { id: e.id }), contentId: e.content_id, relationId: e.relation_id ?? null })));
        await repo.update(tx, id, {});
        return (await blockOf(tx, ctx.mediaId, kind, id, blockId)).block.entries;
      }),

    schedules: async (ctx: RequestContext, id: string) => (await loadTree(ctx.db, ctx.mediaId, 'events', id)).schedules,

    /** Replaces an event's schedules; each recurrence rule is parsed and bounded before anything is written. */
    replaceSchedules: (ctx: RequestContext, id: string, schedules: ScheduleInput[]) =>
      transaction(ctx, async (tx) => {
        const event = await lock(tx, ctx.mediaId, 'events', id);
        const zone = event.timeZone ?? 'UTC';
        const rows = schedules.map((s, i) => {
          if (s.kind === 'slot' && s.ends_at <= s.starts_at) {
            throw communityErrors.invalid('validation_failed', 'a slot must end after it starts', [{ path: `schedules.${i}.ends_at`, message: 'must be after starts_at' }]);
          }
          let bounds;
          try {
            bounds = boundsOf(s, zone);
          } catch (err) {
            const e = err as { details?: ErrorDetail[] };
            if (e.details) e.details = e.details.map((d) => ({ ...d, path: `schedules.${i}.${d.path}` }));
            throw err;
          }
          return s.kind === 'slot'
            ? { ...(s.id && { id: s.id }), kind: 'slot', startsAt: s.starts_at, endsAt: s.ends_at, startsLocal: null, rrule: null, durationMinutes: null, ...bounds }
            : { ...(s.id && { id: s.id }), kind: 'recurrence', startsAt: null, endsAt: null, startsLocal: s.starts_local, rrule: s.rrule, durationMinutes: s.duration_minutes, ...bounds };
        });
        await repo.tree.replace(tx, 'schedules', id, rows);
        await repo.update(tx, id, {});
        return (await loadTree(tx, ctx.mediaId, 'events', id)).schedules;
      }),

    /** An event's occurrences within `from`..`to`. */
    async occurrences(ctx: RequestContext, id: string, from: Date, to: Date) {
      const event = await loadTree(ctx.db, ctx.mediaId, 'events', id);
      return expand(event.schedules.map((s) => ({ ...s, eventId: id, timeZone: event.timeZone })), from, to);
    },

    // ---- Reader

    listPublished: (ctx: RequestContext, kind: ProfileKind, query: ReaderProfilesQuery) =>
      repo.listPublished(ctx.db, ctx.mediaId, kind, query, { categoryIds: query['category_ids[]'], profileTypeIds: query['profile_type_ids[]'] }),

    search: (ctx: RequestContext, kind: ProfileKind, query: ReaderProfilesQuery, mediaLocales: readonly string[]) => {
      const filters = { categoryIds: query['category_ids[]'], profileTypeIds: query['profile_type_ids[]'] };
      if (!query.q) return repo.listPublished(ctx.db, ctx.mediaId, kind, query, filters);
      return repo.search(ctx.db, ctx.mediaId, kind, query, query.q, searchConfigsOf(mediaLocales), filters);
    },

    getPublished: (ctx: RequestContext, kind: ProfileKind, id: string) => loadTree(ctx.db, ctx.mediaId, kind, id, 'published'),

    /** The media of a published profile of the kind, in one prepared statement; the profile's 404 when there is none. */
    async mediaOf(kind: ProfileKind, id: string): Promise<string> {
      const owner = await repo.mediaOf(db, kind, id);
      if (owner === undefined) throw communityErrors.profileNotFound();
      return owner;
    },

    /**
     * A block of a published profile as readers may see it: only the entries whose content is
     * published, and a relation only when it names a published profile (never a draft's id).
     */
    async publishedBlock(ctx: RequestContext, kind: ProfileKind, id: string, blockId: string) {
      const { block } = await blockOf(ctx.db, ctx.mediaId, kind, id, blockId, 'published');
      const relations = block.entries.flatMap((e) => (e.relationId ? [e.relationId] : []));
      const [contents, profiles] = await Promise.all([
        block.entries.length > 0 ? core.publishedContentIds(ctx.db, ctx.mediaId, block.entries.map((e) => e.contentId)) : new Set<string>(),
        relations.length > 0 ? publishedProfileIds(ctx.db, ctx.mediaId, relations) : new Set<string>(),
      ]);
      const entries = block.entries
        .filter((e) => contents.has(e.contentId))
        .map((e) => (e.relationId && !profiles.has(e.relationId) ? { ...e, relationId: null } : e));
      return { ...block, entries };
    },

    /** Published profiles among ids, as Reader lists serve them (assocs). */
    summaries: (ctx: RequestContext, ids: string[]) => repo.summaries(ctx.db, ctx.mediaId, ids),

    /** Occurrences of the media's published events within `from`..`to`. */
    async dates(ctx: RequestContext, from: Date, to: Date) {
      return expand(await repo.schedulesIn(ctx.db, ctx.mediaId, from, to, true), from, to);
    },

    /**
     * Registers the reader: once (again: the existing registration), never beyond capacity. The
     * event row is locked for the transaction, so concurrent registrations count one after another.
     */
    register: (ctx: RequestContext, id: string, body: { listed: boolean; display_name?: string | undefined }) =>
      transaction(ctx, async (tx) => {
        const event = await repo.lockPublishedEvent(tx, ctx.mediaId, id);
        if (!event) throw communityErrors.profileNotFound();
        const reader = readerOf(ctx);
        const existing = await repo.registration(tx, id, reader);
        if (existing) return { row: existing, created: false };
        if (!event.registrationOpen) throw communityErrors.registrationClosed();
        if (event.capacity !== null && (await repo.registrations(tx, id)) >= event.capacity) throw communityErrors.eventFull();
        const row = await repo.register(tx, { mediaId: ctx.mediaId, eventId: id, reader, listed: body.listed, displayName: body.display_name ?? null });
        return { row, created: true };
      }),

    async unregister(ctx: RequestContext, id: string): Promise<void> {
      await transaction(ctx, async (tx) => {
        if (!(await repo.lockPublishedEvent(tx, ctx.mediaId, id))) throw communityErrors.profileNotFound();
        await repo.unregister(tx, id, readerOf(ctx));
      });
    },

    async participants(ctx: RequestContext, id: string, query: PagingQuery) {
      await loadTree(ctx.db, ctx.mediaId, 'events', id, 'published');
      return repo.participants(ctx.db, id, query);
    },

    /** A published, live profile of the media (a reader's favorite must point at one), else 404. */
    async assertPublished(mediaId: string, id: string): Promise<void> {
      const rows = await repo.summaries(db, mediaId, [id]);
      if (rows.length === 0) {
        throw communityErrors.referenceNotFound('profile_not_found', 'the profile', [{ path: 'record_id', message: 'is not a published profile of this media' }]);
      }
    },

    /** The ids among `ids` that are not live people of the media (content authors must be). */
    async missingPeople(executor: Executor, mediaId: string, ids: string[]): Promise<string[]> {
      const live = await liveProfileIds(executor, mediaId, 'people', ids);
      return [...new Set(ids)].filter((id) => !live.has(id));
    },
  };
}

export type ProfilesService = ReturnType<typeof createProfilesService>;
