import type { SQL } from 'drizzle-orm';
import type { Visibility } from '../../../shared/access.js';
import type { Db, Executor } from '../../../db/client.js';
import { type BlockKind, type BlockReferences, blockReferences, storeBlock } from '../../../shared/blocks.js';
import type { ErrorDetail } from '../../../shared/errors.js';
import { type RequestContext, transaction } from '../../../shared/context.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { searchConfigOf, searchConfigsOf } from '../../../shared/search.js';
import type { ReaderPrincipal } from '../../../shared/scopes.js';
import { type WorkspaceTransfer, assertPlacement, transferToWorkspace } from '../../../shared/workspace.js';
import { docsErrors } from '../docs.errors.js';
import type { TemplatesService } from '../templates/templates.service.js';
import { mediaPlaces, missingAssetImages } from '../../core/index.js';
import {
  type ContentListing,
  type ContentRecord,
  type ContentsRepository,
  type ContentsWithin,
  type PublishedView,
  contentAggregate,
  publishedAtOn,
} from './contents.repository.js';
import type {
  BlockCreate,
  BlockUpdate,
  ContentCreate,
  ContentLocaleInput,
  ContentUpdate,
  ContentsQuery,
  CorrectionCreate,
  MetadataBody,
  ReaderContentsQuery,
  ReaderSearchQuery,
  TemplateSwitch,
  VisualInput,
} from './contents.schemas.js';
import { contents } from './contents.table.js';

/** What contents need of core: the media's languages and its categories. */
export interface ContentsCore {
  assertLocales(ctx: RequestContext, entries: Array<{ locale: string }>, path?: string): Promise<void>;
  missingCategories(executor: Executor, mediaId: string, ids: string[]): Promise<string[]>;
  /** The ids among `ids` that are not live people of the media (community's, injected by the container). */
  missingPeople?(executor: Executor, mediaId: string, ids: string[]): Promise<string[]>;
  /** The ids among `ids` that are not live profiles of the media, of any kind (community's; a `profiles` block names them). */
  missingProfiles?(executor: Executor, mediaId: string, ids: string[]): Promise<string[]>;
  /** The ids among `ids` that are profiles readers may see (community's): a content served to readers names no other. */
  publishedProfileIds?(executor: Executor, mediaId: string, ids: string[]): Promise<Set<string>>;
}

/** What of a content read names profiles: its entries' authors and, read with its blocks, `profiles` blocks. */
interface NamingProfiles {
  locales: Array<{ authors: Array<{ profileId: string }>; blocks?: Array<{ kind: string; fields: { profile_ids?: string[] | undefined } }> }>;
}

/** Each author named in the language entries, with where it was named. */
const authorRefs = (locales: ContentLocaleInput[] | undefined) =>
  (locales ?? []).flatMap((l, i) => (l.authors ?? []).map((a, j) => ({ id: a.profile_id, path: `locales.${i}.authors.${j}.profile_id` })));

const placed = {
  table: contents,
  id: contents.id,
  owner: contents.mediaId,
  workspaceId: contents.workspaceId,
  statusId: contents.statusId,
  updatedAt: contents.updatedAt,
  deletedAt: contents.deletedAt,
};

const domainOf = (url: string | null | undefined) => (url ? new URL(url).host : url);

const visualColumns = (visual: VisualInput | undefined) => {
  if (!visual || visual.type === 'none') return { visualType: 'none', visualImageIds: null, visualVideo: null };
  if (visual.type === 'image') return { visualType: 'image', visualImageIds: [visual.image!.asset_image_id], visualVideo: null };
  if (visual.type === 'slideshow') {
    return { visualType: 'slideshow', visualImageIds: visual.slideshow!.images.map((i) => i.asset_image_id), visualVideo: null };
  }
  return { visualType: 'video', visualImageIds: null, visualVideo: storeBlock({ kind: 'video', video: visual.video! }).fields.video };
};

/** A language entry of a content of `mediaId` as the table stores it (the visual's id and the search document are the database's). */
const localeEntry = (mediaId: string) => (l: ContentLocaleInput) => ({
  mediaId,
  locale: l.locale,
  location: l.location ?? null,
  titleHtml: l.title_html.html,
  titleText: l.title_html.text,
  subtitleHtml: l.subtitle_html?.html ?? null,
  subtitleText: l.subtitle_html?.text ?? null,
  leadHtml: l.lead_html?.html ?? null,
  leadText: l.lead_html?.text ?? null,
  seoTitle: l.seo?.title ?? null,
  seoDescription: l.seo?.description ?? null,
  ...visualColumns(l.visual),
  searchConfig: searchConfigOf(l.locale),
});

/** The asset images the entries' visuals show, each with where it was named. */
const visualImages = (locales: ContentLocaleInput[]) =>
  locales.flatMap((l, i) => {
    const v = l.visual;
    if (v?.type === 'image') return [{ id: v.image!.asset_image_id, path: `locales.${i}.visual.image.asset_image_id` }];
    if (v?.type === 'slideshow') {
      return v.slideshow!.images.map((img, j) => ({ id: img.asset_image_id, path: `locales.${i}.visual.slideshow.images.${j}.asset_image_id` }));
    }
    return [];
  });

/**
 * Contents. Every method given a context reads and writes on its executor (`ctx.db`, or the
 * transaction `transaction(ctx, …)` joins or opens); `deps.db` serves only the reads made without
 * one: a Public path's media (`mediaOf`) and another module's check of a favorite (`assertPublished`).
 */
export function createContentsService(deps: { db: Db; repo: ContentsRepository; templates: TemplatesService; core: ContentsCore }) {
  const { db, repo, templates, core } = deps;

  const load = async (executor: Executor, mediaId: string, id: string) => {
    const row = await repo.find(executor, mediaId, id);
    if (!row) throw docsErrors.contentNotFound();
    return row;
  };

  const lock = async (tx: Executor, mediaId: string, id: string) => {
    if (!(await contentAggregate.lock(tx, id, mediaId))) throw docsErrors.contentNotFound();
  };

  /** 404 naming each referenced record that is not in the media. */
  const assertExist = async (
    tx: Executor,
    mediaId: string,
    refs: {
      categories?: Array<{ id: string; path: string }>;
      images?: Array<{ id: string; path: string }>;
      contents?: Array<{ id: string; path: string }>;
      profiles?: Array<{ id: string; path: string }>;
      authors?: Array<{ id: string; path: string }>;
    },
  ) => {
    const check = async (
      wanted: Array<{ id: string; path: string }> | undefined,
      missing: (ids: string[]) => Promise<string[]>,
      code: `${string}_not_found`,
      what: string,
    ) => {
      if (!wanted?.length) return;
      const gone = new Set(await missing([...new Set(wanted.map((w) => w.id))]));
      const details: ErrorDetail[] = wanted.filter((w) => gone.has(w.id)).map((w) => ({ path: w.path, message: `is not ${what} of this media` }));
      if (details.length > 0) throw docsErrors.referenceNotFound(code, what, details);
    };
    await check(refs.categories, (ids) => core.missingCategories(tx, mediaId, ids), 'category_not_found', 'a category');
    await check(refs.images, (ids) => missingAssetImages(tx, mediaId, ids), 'asset_image_not_found', 'an asset image');
    await check(refs.contents, (ids) => repo.missingContents(tx, mediaId, ids), 'content_not_found', 'a content');
    const missingProfiles = core.missingProfiles;
    if (missingProfiles) await check(refs.profiles, (ids) => missingProfiles(tx, mediaId, ids), 'profile_not_found', 'a profile');
    // Authors must be people of the media: a 400 naming each that is not.
    if (refs.authors?.length && core.missingPeople) {
      const gone = new Set(await core.missingPeople(tx, mediaId, [...new Set(refs.authors.map((a) => a.id))]));
      const details = refs.authors.filter((a) => gone.has(a.id)).map((a) => ({ path: a.path, message: 'is not a person of this media' }));
      if (details.length > 0) throw docsErrors.invalidAuthor(details);
    }
  };

  /** Writes the language entries (the complete set), their authors and search documents. */
  const writeLocales = async (tx: Executor, mediaId: string, id: string, locales: ContentLocaleInput[]) => {
    await contentAggregate.replace(tx, 'locales', id, locales.map(localeEntry(mediaId)));
    const ids = await repo.localeIds(tx, id);
    for (const l of locales) {
      await contentAggregate.replace(
        tx,
        'locales.authors',
        ids.get(l.locale)!,
        (l.authors ?? []).map((a) => ({ profileId: a.profile_id })),
      );
    }
    await repo.refreshSearch(tx, id);
  };

  const categoryRefs = (categories: Array<{ category_id: string }> | undefined) =>
    categories?.map((c, i) => ({ id: c.category_id, path: `content_categories.${i}.category_id` }));

  /** Refuses a block its content's template does not allow, or one pointing at records outside the media. */
  const assertBlockAllowed = async (tx: Executor, mediaId: string, templateId: string, kind: BlockKind, refs: BlockReferences) => {
    const rules = await templates.rulesOf(tx, mediaId, templateId);
    if (!rules.blockKinds.includes(kind)) {
      throw docsErrors.blockKindNotAllowed([{ path: 'kind', message: `must be one of the template's block_kinds: ${rules.blockKinds.join(', ') || 'none'}` }]);
    }
    const field = kind === 'slideshow' ? 'slideshow.images' : 'image';
    await assertExist(tx, mediaId, {
      images: refs.assetImageIds.map((id, i) => ({ id, path: kind === 'slideshow' ? `${field}.${i}.asset_image_id` : `${field}.asset_image_id` })),
      contents: refs.contentIds.map((id, i) => ({ id, path: `content_ids.${i}` })),
      profiles: refs.profileIds.map((id, i) => ({ id, path: `profile_ids.${i}` })),
    });
  };

  /** Writes a language entry's blocks in this order (entries with ids are kept); positions renumbered. */
  const writeBlocks = async (tx: Executor, contentId: string, localeId: string, entries: Array<Record<string, unknown> & { id?: string }>) => {
    await contentAggregate.replace(tx, 'locales.blocks', localeId, entries);
    await repo.refreshSearch(tx, contentId, localeId);
    await repo.update(tx, contentId, {});
  };

  /**
   * Contents as readers may see them: authors and `profiles` blocks' people only where they are
   * profiles readers may see (published, live). One lookup for all the rows, none when they name
   * no one. The rows are the read's own, changed in place.
   */
  const readersView = async <R extends NamingProfiles>(ctx: RequestContext, rows: R[]): Promise<R[]> => {
    const named = new Set<string>();
    for (const row of rows) {
      for (const l of row.locales) {
        for (const a of l.authors) named.add(a.profileId);
        for (const b of l.blocks ?? []) if (b.kind === 'profiles') for (const id of b.fields.profile_ids ?? []) named.add(id);
      }
    }
    if (named.size === 0 || !core.publishedProfileIds) return rows;
    const visible = await core.publishedProfileIds(ctx.db, ctx.mediaId, [...named]);
    for (const row of rows) {
      for (const l of row.locales) {
        l.authors = l.authors.filter((a) => visible.has(a.profileId));
        for (const b of l.blocks ?? []) {
          if (b.kind === 'profiles' && b.fields.profile_ids) b.fields = Object.assign({}, b.fields, { profile_ids: b.fields.profile_ids.filter((id) => visible.has(id)) });
        }
      }
    }
    return rows;
  };
  /**
   * How a Reader request sees contents (CONVENTIONS, "Revisions, corrections and preview"): as
   * published now; as published at a time-travel token's `as_of`; or, for the content a preview
   * link opens (`id`), as it is, whatever its status (undefined: live only).
   */
  const viewOf = (ctx: RequestContext, id?: string): PublishedView | undefined => {
    const preview = ctx.preview;
    if (!preview) return 'published';
    if (preview.contentId !== null) return preview.contentId === id ? undefined : 'published';
    return preview.asOf ? { view: 'published', asOf: preview.asOf } : 'published';
  };

  const readersPage = async <R extends NamingProfiles, P extends { items: R[] }>(ctx: RequestContext, page: P): Promise<P> => {
    await readersView(ctx, page.items);
    return page;
  };

  /** A Reader search page of published contents, among those another module names when `within` is given. */
  const searchPublished = async (ctx: RequestContext, query: ReaderSearchQuery, mediaLocales: readonly string[], within?: ContentsWithin) =>
    readersPage(
      ctx,
      await repo.search(
        ctx.db,
        ctx.mediaId,
        query,
        query.q,
        searchConfigsOf(mediaLocales),
        { categoryIds: query['category_ids[]'], templateIds: query['template_ids[]'], ...(within && { within }) },
        query.sort,
        viewOf(ctx),
      ),
    );


  /** A question of a published content, once `admit` let the reader in (its content's access decision). */
  const loadQuestion = async (ctx: RequestContext, contentId: string, blockId: string, admit: Admit) => {
    const question = await repo.publishedQuestion(ctx.db, ctx.mediaId, contentId, blockId, viewOf(ctx, contentId));
    if (!question) throw docsErrors.questionNotFound();
    await admit(question.content);
    return question;
  };

  const resultsOf = async (executor: Executor, question: { id: string; fields: { title?: string; choices?: Array<{ id: string; label: string }> } }) => {
    const counts = await repo.voteCounts(executor, question.id);
    const choices = (question.fields.choices ?? []).map((c) => ({ id: c.id, label: c.label, votes: counts.get(c.id) ?? 0 }));
    return { question_id: question.id, title: question.fields.title ?? '', total: choices.reduce((sum, c) => sum + c.votes, 0), choices };
  };

  return {
    list: (ctx: RequestContext, query: ContentsQuery) =>
      repo.list(ctx.db, ctx.mediaId, query, query.sort, {
        workspaceId: query.workspace_id,
        statusId: query.status_id,
        templateId: query.template_id,
        categoryId: query.category_id,
        locale: query.locale,
        isArchived: query.is_archived,
        updatedSince: query.updated_since,
      }),

    get: (ctx: RequestContext, id: string) => load(ctx.db, ctx.mediaId, id),

    async create(ctx: RequestContext, input: ContentCreate) {
      await core.assertLocales(ctx, input.locales);
      return transaction(ctx, async (tx) => {
        if (!(await templates.find(tx, ctx.mediaId, input.template_id))) {
          throw docsErrors.referenceNotFound('template_not_found', 'the template', [{ path: 'template_id', message: 'is not a template of this media' }]);
        }
        // The workspace and status of a new content are checked like a transfer's.
        await assertPlacement(tx, mediaPlaces, ctx.mediaId, { workspaceId: input.workspace_id, statusId: input.status_id });
        await assertExist(tx, ctx.mediaId, {
          categories: categoryRefs(input.content_categories),
          images: visualImages(input.locales),
          authors: authorRefs(input.locales),
        });
        const id = await repo.insert(tx, {
          mediaId: ctx.mediaId,
          templateId: input.template_id,
          workspaceId: input.workspace_id,
          statusId: input.status_id,
          canonicalUrl: input.canonical_url ?? null,
          canonicalDomain: domainOf(input.canonical_url) ?? null,
          isArchived: input.is_archived ?? false,
          showPublicationDatetime: input.show_publication_datetime ?? true,
          isAdvertising: input.is_advertising ?? false,
          isSponsored: input.is_sponsored ?? false,
          visibility: input.visibility ?? 'public',
          productKeys: [...new Set(input.product_keys ?? [])],
          publishedAt: input.published_at !== undefined ? input.published_at : publishedAtOn.create(input.status_id),
          releasedAt: input.released_at ?? null,
          releasedAtTimezone: input.released_at_timezone ?? null,
        });
        if (input.content_categories) {
          await contentAggregate.replace(tx, 'categories', id, input.content_categories.map((c) => ({ categoryId: c.category_id })));
        }
        await writeLocales(tx, ctx.mediaId, id, input.locales);
        return load(tx, ctx.mediaId, id);
      });
    },

    /** Updates fields; `locales` and `content_categories`, when given, are the complete sets. */
    async update(ctx: RequestContext, id: string, patch: ContentUpdate) {
      if (patch.locales) await core.assertLocales(ctx, patch.locales);
      return transaction(ctx, async (tx) => {
        await lock(tx, ctx.mediaId, id);
        if (patch.status_id) await assertPlacement(tx, mediaPlaces, ctx.mediaId, { statusId: patch.status_id });
        await assertExist(tx, ctx.mediaId, {
          categories: categoryRefs(patch.content_categories),
          ...(patch.locales && { images: visualImages(patch.locales), authors: authorRefs(patch.locales) }),
        });
        await repo.update(tx, id, {
          ...(patch.status_id !== undefined && { statusId: patch.status_id }),
          ...(patch.canonical_url !== undefined && { canonicalUrl: patch.canonical_url, canonicalDomain: domainOf(patch.canonical_url) }),
          ...(patch.is_archived !== undefined && { isArchived: patch.is_archived }),
          ...(patch.show_publication_datetime !== undefined && { showPublicationDatetime: patch.show_publication_datetime }),
          ...(patch.is_advertising !== undefined && { isAdvertising: patch.is_advertising }),
          ...(patch.is_sponsored !== undefined && { isSponsored: patch.is_sponsored }),
          ...(patch.visibility !== undefined && { visibility: patch.visibility }),
          ...(patch.product_keys !== undefined && { productKeys: [...new Set(patch.product_keys)] }),
          ...(patch.published_at !== undefined
            ? { publishedAt: patch.published_at }
            : patch.status_id !== undefined && { publishedAt: publishedAtOn.move(patch.status_id) }),
          ...(patch.released_at !== undefined && { releasedAt: patch.released_at }),
          ...(patch.released_at_timezone !== undefined && { releasedAtTimezone: patch.released_at_timezone }),
        });
        if (patch.content_categories) {
          await contentAggregate.replace(tx, 'categories', id, patch.content_categories.map((c) => ({ categoryId: c.category_id })));
        }
        if (patch.locales) await writeLocales(tx, ctx.mediaId, id, patch.locales);
        return load(tx, ctx.mediaId, id);
      });
    },

    async remove(ctx: RequestContext, id: string): Promise<void> {
      if (!(await transaction(ctx, (tx) => contentAggregate.softDelete(tx, id, ctx.mediaId)))) throw docsErrors.contentNotFound();
    },

    restore: (ctx: RequestContext, id: string) =>
      transaction(ctx, async (tx) => {
        if ((await contentAggregate.restore(tx, id, ctx.mediaId)) === 'not_found') throw docsErrors.contentNotFound();
        return load(tx, ctx.mediaId, id);
      }),

    /**
     * Moves the content to another template. Blocks and metadata keys the new template does
     * not allow are refused with a 409 listing them, or removed with `drop_incompatible`.
     */
    switchTemplate: (ctx: RequestContext, id: string, body: TemplateSwitch) =>
      transaction(ctx, async (tx) => {
        await lock(tx, ctx.mediaId, id);
        const template = await templates.find(tx, ctx.mediaId, body.template_id);
        if (!template) {
          throw docsErrors.referenceNotFound('template_not_found', 'the template', [{ path: 'template_id', message: 'is not a template of this media' }]);
        }
        const tree = (await repo.findTree(tx, ctx.mediaId, id))!;
        const kinds = new Set<string>(template.blockKinds);
        const keys = new Set(template.metadataKeys);
        const details: ErrorDetail[] = [];
        for (const l of tree.locales) {
          for (const b of l.blocks) {
            if (!kinds.has(b.kind)) details.push({ path: `blocks.${b.id}`, message: `${b.kind} block (${l.locale}, position ${b.position}) is not allowed by the template` });
          }
        }
        for (const m of tree.metadata) {
          if (!keys.has(m.key)) details.push({ path: `metadata.${m.key}`, message: 'metadata key is not allowed by the template' });
        }
        if (details.length > 0 && !body.drop_incompatible) throw docsErrors.templateIncompatible(details);
        if (details.length > 0) {
          for (const l of tree.locales) {
            const kept = l.blocks.filter((b) => kinds.has(b.kind));
            if (kept.length !== l.blocks.length) await contentAggregate.replace(tx, 'locales.blocks', l.id, kept.map((b) => ({ id: b.id })));
          }
          const keptMetadata = tree.metadata.filter((m) => keys.has(m.key));
          if (keptMetadata.length !== tree.metadata.length) {
            await contentAggregate.replace(tx, 'metadata', id, keptMetadata.map((m) => ({ key: m.key, value: m.value })));
          }
          await repo.refreshSearch(tx, id);
        }
        await repo.update(tx, id, { templateId: template.id });
        return load(tx, ctx.mediaId, id);
      }),

    async transfer(ctx: RequestContext, id: string, target: WorkspaceTransfer): Promise<void> {
      const moved = await transaction(ctx, async (tx) => {
        // Stamped first, while the row still has the status it leaves; a refused transfer rolls it back.
        await repo.stampMove(tx, ctx.mediaId, id, target.status_id);
        return transferToWorkspace(tx, placed, mediaPlaces, id, ctx.mediaId, target);
      });
      if (!moved) throw docsErrors.contentNotFound();
    },

    async metadata(ctx: RequestContext, id: string) {
      const tree = await repo.findTree(ctx.db, ctx.mediaId, id);
      if (!tree) throw docsErrors.contentNotFound();
      return tree.metadata;
    },

    /** The whole live content (entries with authors and blocks, categories, metadata), in one statement. */
    async tree(ctx: RequestContext, id: string) {
      const tree = await repo.findTree(ctx.db, ctx.mediaId, id);
      if (!tree) throw docsErrors.contentNotFound();
      return tree;
    },

    /** Replaces the metadata as a whole; every key must be one of the template's metadata_keys. */
    replaceMetadata: (ctx: RequestContext, id: string, body: MetadataBody) =>
      transaction(ctx, async (tx) => {
        await lock(tx, ctx.mediaId, id);
        const rules = await templates.rulesOf(tx, ctx.mediaId, await repo.templateOf(tx, id));
        const details = body.metadata.flatMap((m, i) =>
          rules.metadataKeys.includes(m.key) ? [] : [{ path: `metadata.${i}.key`, message: `must be one of ${rules.metadataKeys.join(', ') || 'none'}` }],
        );
        if (details.length > 0) throw docsErrors.metadataKeyNotAllowed(details);
        await contentAggregate.replace(tx, 'metadata', id, body.metadata.map((m) => ({ key: m.key, value: m.value })));
        await repo.update(tx, id, {});
        return (await repo.findTree(tx, ctx.mediaId, id))!.metadata;
      }),

    async blocks(ctx: RequestContext, id: string, locale?: string) {
      if (!(await repo.find(ctx.db, ctx.mediaId, id))) throw docsErrors.contentNotFound();
      return repo.blocks(ctx.db, id, locale);
    },

    /** Adds a block to a language entry, at `position` (others move down) or at the end. */
    createBlock: (ctx: RequestContext, id: string, body: BlockCreate) =>
      transaction(ctx, async (tx) => {
        await lock(tx, ctx.mediaId, id);
        const localeId = (await repo.localeIds(tx, id)).get(body.locale);
        if (!localeId) throw docsErrors.localeNotFound();
        const stored = storeBlock(body);
        await assertBlockAllowed(tx, ctx.mediaId, await repo.templateOf(tx, id), stored.kind, blockReferences(stored));
        const current = await repo.blockIds(tx, localeId);
        const position = body.position ?? current.length;
        if (position > current.length) throw docsErrors.invalidPosition(current.length);
        const entries: Array<Record<string, unknown> & { id?: string }> = current.map((blockId) => ({ id: blockId }));
        entries.splice(position, 0, { locale: body.locale, ...stored });
        await writeBlocks(tx, id, localeId, entries);
        return (await repo.blockAt(tx, localeId, position))!;
      }),

    /** Moves a block (`position`) or rewrites its fields (its kind's, whole). */
    updateBlock: (ctx: RequestContext, id: string, blockId: string, body: BlockUpdate) =>
      transaction(ctx, async (tx) => {
        await lock(tx, ctx.mediaId, id);
        const block = await repo.block(tx, id, blockId);
        if (!block) throw docsErrors.blockNotFound();
        const current = await repo.blockIds(tx, block.localeId);
        const position = body.position ?? block.position;
        if (position >= current.length) throw docsErrors.invalidPosition(current.length - 1);
        let entry: Record<string, unknown> & { id: string } = { id: blockId };
        if ('kind' in body) {
          const { position: _position, ...fields } = body;
          const stored = storeBlock(fields, fields.kind === block.kind ? block.fields : undefined);
          await assertBlockAllowed(tx, ctx.mediaId, await repo.templateOf(tx, id), stored.kind, blockReferences(stored));
          entry = { id: blockId, ...stored };
        }
        const order = current.filter((b) => b !== blockId);
        const entries: Array<Record<string, unknown> & { id?: string }> = order.map((b) => ({ id: b }));
        entries.splice(position, 0, entry);
        await writeBlocks(tx, id, block.localeId, entries);
        return (await repo.block(tx, id, blockId))!;
      }),

    /** Soft-deletes a block on its own (a restore of the content does not bring it back); the others close ranks. */
    removeBlock: (ctx: RequestContext, id: string, blockId: string) =>
      transaction(ctx, async (tx) => {
        await lock(tx, ctx.mediaId, id);
        const block = await repo.block(tx, id, blockId);
        if (!block) throw docsErrors.blockNotFound();
        const current = await repo.blockIds(tx, block.localeId);
        await writeBlocks(
          tx,
          id,
          block.localeId,
          current.filter((b) => b !== blockId).map((b) => ({ id: b })),
        );
      }),

    // ---- Corrections: public notes on a content, per language (the Reader serves them with the content).

    /** The content's live correction notes, newest first. */
    async corrections(ctx: RequestContext, id: string) {
      await load(ctx.db, ctx.mediaId, id);
      return repo.corrections(ctx.db, id);
    },

    /** Adds a note in a language the content has a live entry in (404 locale_not_found otherwise). */
    correct: (ctx: RequestContext, id: string, body: CorrectionCreate) =>
      transaction(ctx, async (tx) => {
        await lock(tx, ctx.mediaId, id);
        const content = await load(tx, ctx.mediaId, id);
        if (!content.locales.some((l) => l.locale === body.locale)) throw docsErrors.localeNotFound();
        return repo.insertCorrection(tx, { mediaId: ctx.mediaId, contentId: id, locale: body.locale, noteHtml: body.note_html.html, noteText: body.note_html.text });
      }),

    async removeCorrection(ctx: RequestContext, id: string, correctionId: string): Promise<void> {
      await load(ctx.db, ctx.mediaId, id);
      if (!(await repo.removeCorrection(ctx.db, id, correctionId))) throw docsErrors.correctionNotFound();
    },

    // ---- Reader: every read below passes through readersView, so that no profile readers may not see is named.

    listPublished: async (ctx: RequestContext, query: ReaderContentsQuery) =>
      readersPage(
        ctx,
        await repo.listPublished(ctx.db, ctx.mediaId, query, { categoryIds: query['category_ids[]'], templateIds: query['template_ids[]'] }, viewOf(ctx)),
      ),

    /** Published contents matching `q`, most relevant first, searched in the media's languages. */
    search: (ctx: RequestContext, query: ReaderSearchQuery, mediaLocales: readonly string[]) => searchPublished(ctx, query, mediaLocales),

    /** Published contents in another module's order (a magazine section's), a Reader list page. */
    listPublishedIn: async (ctx: RequestContext, query: PagingQuery, listing: ContentListing) =>
      readersPage(ctx, await repo.listPublishedIn(ctx.db, ctx.mediaId, query, listing, viewOf(ctx))),

    /** Published contents matching `q` among those another module names (`within`), most relevant first. */
    searchWithin: (ctx: RequestContext, query: ReaderSearchQuery, mediaLocales: readonly string[], within: ContentsWithin) =>
      searchPublished(ctx, query, mediaLocales, within),

    /** SQL of a derived table `(content_id, rank)` of live contents matching the placeholder `q` in the media's languages. */
    searchHits: (mediaLocales: readonly string[]) => repo.searchHits(searchConfigsOf(mediaLocales)),

    /** SQL: whether the content `contentId` has a live entry matching the placeholder `q` in the media's languages (the media: placeholder `owner`). */
    searchMatchedBy: (mediaLocales: readonly string[], contentId: SQL) => repo.matchedBy(searchConfigsOf(mediaLocales), contentId),

    /** The media's published contents among `ids`, by id. */
    async publishedAmong(ctx: RequestContext, ids: string[]) {
      if (ids.length === 0) return new Map<string, ContentRecord>();
      return new Map((await readersView(ctx, await repo.publishedAmong(ctx.db, ctx.mediaId, ids, viewOf(ctx)))).map((r) => [r.id, r]));
    },

    /** The ids among `ids` that are not live contents of the media (other modules' references). */
    missingContents: (executor: Executor, mediaId: string, ids: string[]) => repo.missingContents(executor, mediaId, [...new Set(ids)]),

    async getPublished(ctx: RequestContext, id: string) {
      const row = await repo.findTree(ctx.db, ctx.mediaId, id, viewOf(ctx, id));
      if (!row) throw docsErrors.contentNotFound();
      return (await readersView(ctx, [row]))[0]!;
    },

    /**
     * The media of a published content (a Public path names the content alone), else the 404 its
     * Reader read answers: content_not_found, or the caller's (a question's results answer question_not_found).
     */
    async mediaOf(id: string, notFound: () => Error = docsErrors.contentNotFound): Promise<string> {
      const mediaId = await repo.publishedOwner(db, id);
      if (!mediaId) throw notFound();
      return mediaId;
    },

    /** A content readers may see now, else 404 (a reader's favorite must point at one). */
    async assertPublished(mediaId: string, id: string): Promise<void> {
      if (!(await repo.isPublished(db, mediaId, id))) {
        throw docsErrors.referenceNotFound('content_not_found', 'the content', [{ path: 'record_id', message: 'is not a published content of this media' }]);
      }
    },

    async results(ctx: RequestContext, id: string, blockId: string, admit: Admit) {
      return resultsOf(ctx.db, await loadQuestion(ctx, id, blockId, admit));
    },

    /** A reader's vote: one per reader and question; voting again replaces the first. */
    async vote(ctx: RequestContext, id: string, blockId: string, choiceId: string, admit: Admit) {
      const question = await loadQuestion(ctx, id, blockId, admit);
      if (!(question.fields.choices ?? []).some((c) => c.id === choiceId)) throw docsErrors.invalidChoice();
      await repo.vote(ctx.db, { mediaId: ctx.mediaId, blockId, voter: voterOf(ctx), choiceId });
      return resultsOf(ctx.db, question);
    },
  };
}

/** Lets a reader at a content's question, or throws the 403 of the content's access decision. */
export type Admit = (content: { id: string; visibility: Visibility; productKeys: readonly string[] }) => Promise<void>;

/** The reader who votes: the route requires a reader's token, whose subject names them. */
const voterOf = (ctx: RequestContext) => (ctx.principal as ReaderPrincipal).subject;

export type ContentsService = ReturnType<typeof createContentsService>;
