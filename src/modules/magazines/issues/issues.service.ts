import type { SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../../db/client.js';
import type { ErrorDetail } from '../../../shared/errors.js';
import { type RequestContext, transaction } from '../../../shared/context.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { searchConfigsOf } from '../../../shared/search.js';
import { type CoreServices, missingAssetImages } from '../../core/index.js';
import type { ContentsService, ReaderSearchQuery } from '../../docs/index.js';
import type { IssueTypesService } from '../issue-types/issue-types.record.js';
import { magazinesErrors } from '../magazines.errors.js';
import {
  type IssuesRepository,
  blockRecord,
  issueRecord,
  issueTree,
  sectionContentRecord,
  sectionRecord,
  sectionTree,
} from './issues.repository.js';
import type {
  BlockUpdate,
  BlocksBody,
  IssueContentsSearchQuery,
  IssueCreate,
  IssueUpdate,
  SectionContentCreate,
  SectionCreate,
  SectionUpdate,
  SlotsBody,
} from './issues.schemas.js';

/** What magazines need of docs: that contents exist, and the Reader's listing and search of them. */
export type MagazinesDocs = Pick<ContentsService, 'missingContents' | 'listPublishedIn' | 'searchWithin' | 'searchHits' | 'searchMatchedBy' | 'publishedAmong'>;

/**
 * Issues, their sections, blocks, slots and section contents. Every method given a context reads
 * and writes on its executor (`ctx.db`, or the transaction `transaction(ctx, …)` joins or opens);
 * `deps.db` serves only a Public path's media (`issueMediaOf`, `sectionMediaOf`), read before the
 * request knows it.
 */
export function createIssuesService(deps: {
  db: Db;
  repo: IssuesRepository;
  issueTypes: IssueTypesService;
  core: Pick<CoreServices, 'tenancy'>;
  docs: MagazinesDocs;
}) {
  const { db, repo, issueTypes, core, docs } = deps;
  const { tenancy } = core;

  const loadIssue = async (executor: Executor, mediaId: string, id: string) => {
    const row = await repo.findIssue(executor, mediaId, id);
    if (!row) throw magazinesErrors.issueNotFound();
    return row;
  };
  const loadSection = async (executor: Executor, mediaId: string, id: string) => {
    const row = await repo.findSection(executor, mediaId, id);
    if (!row) throw magazinesErrors.sectionNotFound();
    return row;
  };
  const loadBlock = async (executor: Executor, mediaId: string, id: string) => {
    const row = await repo.findBlock(executor, mediaId, id);
    if (!row) throw magazinesErrors.sectionBlockNotFound();
    return row;
  };
  const loadSectionContent = async (executor: Executor, mediaId: string, id: string) => {
    const row = await repo.findSectionContent(executor, mediaId, id);
    if (!row) throw magazinesErrors.sectionContentNotFound();
    return row;
  };

  /** A section of the given issue (a section of another issue is not found there). */
  const sectionOf = async (executor: Executor, mediaId: string, issueId: string, sectionId: string) => {
    const section = await loadSection(executor, mediaId, sectionId);
    if (section.issueId !== issueId) throw magazinesErrors.sectionNotFound();
    return section;
  };

  /** Every named content must be a live content of the media: 404 naming each other one. */
  const assertContents = async (tx: Executor, mediaId: string, refs: Array<{ path: string; id: string }>) => {
    const missing = new Set(await docs.missingContents(tx, mediaId, refs.map((r) => r.id)));
    const details: ErrorDetail[] = refs.filter((r) => missing.has(r.id)).map((r) => ({ path: r.path, message: 'is not a content of this media' }));
    if (details.length > 0) throw magazinesErrors.referenceNotFound('content_not_found', 'a content', details);
  };

  const assertIssueRefs = async (tx: Executor, mediaId: string, input: Pick<IssueUpdate, 'issue_type_id' | 'locales'>) => {
    if (input.issue_type_id && !(await issueTypes.exists(tx, mediaId, input.issue_type_id))) {
      throw magazinesErrors.referenceNotFound('issue_type_not_found', 'the issue type', [{ path: 'issue_type_id', message: 'is not an issue type of this media' }]);
    }
    if (!input.locales) return;
    const images = input.locales.flatMap((l, i) => (l.visual?.image ? [{ path: `locales.${i}.visual.image.asset_image_id`, id: l.visual.image.asset_image_id }] : []));
    const missing = new Set(await missingAssetImages(tx, mediaId, images.map((r) => r.id)));
    const details = images.filter((r) => missing.has(r.id)).map((r) => ({ path: r.path, message: 'is not an asset image of this media' }));
    if (details.length > 0) throw magazinesErrors.referenceNotFound('asset_image_not_found', 'an asset image', details);
  };

  const issueLocales = (locales: NonNullable<IssueUpdate['locales']>) =>
    locales.map((l) => ({
      locale: l.locale,
      name: l.name,
      descriptionHtml: l.description_html?.html ?? null,
      descriptionText: l.description_html?.text ?? null,
      visualType: l.visual?.type ?? 'none',
      visualImageId: l.visual?.image?.asset_image_id ?? null,
    }));

  const sectionLocales = (locales: NonNullable<SectionUpdate['locales']>) =>
    locales.map((l) => ({
      locale: l.locale,
      name: l.name,
      descriptionHtml: l.description_html?.html ?? null,
      descriptionText: l.description_html?.text ?? null,
    }));

  /** A live section's published contents, docs' Reader page over the section's entries in position order. */
  const listSection = (ctx: RequestContext, sectionId: string, query: PagingQuery) =>
    docs.listPublishedIn(ctx, query, { name: 'section', source: repo.sectionListing, params: { section: sectionId }, scope: `section:${sectionId}` });

  /** A set sent with positions, in their order (the aggregate numbers it 0..n-1). */
  const inOrder = <T extends { position: number }>(entries: T[]) => [...entries].sort((a, b) => a.position - b.position);

  return {
    // ---- Issues

    async listIssues(ctx: RequestContext, workspaceId: string, query: PagingQuery) {
      await tenancy.getWorkspace(ctx, workspaceId);
      return repo.listIssues(ctx.db, ctx.mediaId, workspaceId, query);
    },

    async createIssue(ctx: RequestContext, workspaceId: string, input: IssueCreate) {
      await tenancy.getWorkspace(ctx, workspaceId);
      // Outside the transaction: the media's languages are read (and cached) on the pool.
      await tenancy.assertLocales(ctx, input.locales);
      return transaction(ctx, async (tx) => {
        await assertIssueRefs(tx, ctx.mediaId, input);
        const id = await repo.insertIssue(tx, {
          mediaId: ctx.mediaId,
          workspaceId,
          issueTypeId: input.issue_type_id,
          kind: input.kind,
          color: input.color.toLowerCase(),
          pdfFileKey: input.pdf_file_key ?? null,
          advertisingKey: input.advertising_key ?? null,
        });
        await issueRecord.replace(tx, 'locales', id, issueLocales(input.locales));
        return loadIssue(tx, ctx.mediaId, id);
      });
    },

    getIssue: (ctx: RequestContext, id: string) => loadIssue(ctx.db, ctx.mediaId, id),

    updateIssue: async (ctx: RequestContext, id: string, patch: IssueUpdate) => {
      if (patch.locales) await tenancy.assertLocales(ctx, patch.locales);
      return transaction(ctx, async (tx) => {
        if (!(await issueRecord.lock(tx, id, ctx.mediaId))) throw magazinesErrors.issueNotFound();
        await assertIssueRefs(tx, ctx.mediaId, patch);
        await repo.updateIssue(tx, id, {
          ...(patch.issue_type_id !== undefined && { issueTypeId: patch.issue_type_id }),
          ...(patch.kind !== undefined && { kind: patch.kind }),
          ...(patch.color !== undefined && { color: patch.color.toLowerCase() }),
          ...(patch.pdf_file_key !== undefined && { pdfFileKey: patch.pdf_file_key }),
          ...(patch.advertising_key !== undefined && { advertisingKey: patch.advertising_key }),
        });
        if (patch.locales) await issueRecord.replace(tx, 'locales', id, issueLocales(patch.locales));
        return loadIssue(tx, ctx.mediaId, id);
      });
    },

    /** Soft-deletes the issue with its locales, sections, blocks, slots and section contents, under one stamp. */
    async removeIssue(ctx: RequestContext, id: string): Promise<void> {
      if (!(await transaction(ctx, (tx) => issueTree.softDelete(tx, id, ctx.mediaId)))) throw magazinesErrors.issueNotFound();
    },

    restoreIssue: (ctx: RequestContext, id: string) =>
      transaction(ctx, async (tx) => {
        if ((await issueTree.restore(tx, id, ctx.mediaId)) === 'not_found') throw magazinesErrors.issueNotFound();
        return loadIssue(tx, ctx.mediaId, id);
      }),

    // ---- Sections

    async listSections(ctx: RequestContext, issueId: string, query: PagingQuery) {
      await loadIssue(ctx.db, ctx.mediaId, issueId);
      return repo.listSections(ctx.db, ctx.mediaId, issueId, query);
    },

    /** The issue's live sections in order, each with its blocks and their slots (an issue's revision). */
    async sectionLayouts(ctx: RequestContext, issueId: string) {
      const layouts = [];
      for (const section of await repo.allSections(ctx.db, ctx.mediaId, issueId)) {
        layouts.push({ section, blocks: (await repo.layout(ctx.db, ctx.mediaId, section.id))?.blocks ?? [] });
      }
      return layouts;
    },

    createSection: async (ctx: RequestContext, issueId: string, input: SectionCreate) => {
      await tenancy.assertLocales(ctx, input.locales);
      return transaction(ctx, async (tx) => {
        // The issue's row lock orders concurrent appends: each gets its own next position.
        if (!(await issueRecord.lock(tx, issueId, ctx.mediaId))) throw magazinesErrors.issueNotFound();
        const id = await repo.insertSection(tx, {
          mediaId: ctx.mediaId,
          issueId,
          key: input.key,
          position: input.position ?? (await repo.nextPosition(tx, 'sections', issueId)),
        });
        await sectionRecord.replace(tx, 'locales', id, sectionLocales(input.locales));
        return loadSection(tx, ctx.mediaId, id);
      });
    },

    getSection: (ctx: RequestContext, id: string) => loadSection(ctx.db, ctx.mediaId, id),

    updateSection: async (ctx: RequestContext, id: string, patch: SectionUpdate) => {
      if (patch.locales) await tenancy.assertLocales(ctx, patch.locales);
      return transaction(ctx, async (tx) => {
        if (!(await sectionRecord.lock(tx, id, ctx.mediaId))) throw magazinesErrors.sectionNotFound();
        await repo.updateSection(tx, id, {
          ...(patch.key !== undefined && { key: patch.key }),
          ...(patch.position !== undefined && { position: patch.position }),
        });
        if (patch.locales) await sectionRecord.replace(tx, 'locales', id, sectionLocales(patch.locales));
        return loadSection(tx, ctx.mediaId, id);
      });
    },

    /** Soft-deletes the section with its locales, blocks, slots and contents; an issue restore leaves it deleted. */
    async removeSection(ctx: RequestContext, id: string): Promise<void> {
      if (!(await transaction(ctx, (tx) => sectionTree.softDelete(tx, id, ctx.mediaId)))) throw magazinesErrors.sectionNotFound();
    },

    // ---- Section blocks and slots

    async listBlocks(ctx: RequestContext, sectionId: string) {
      const layout = await repo.layout(ctx.db, ctx.mediaId, sectionId);
      if (!layout) throw magazinesErrors.sectionNotFound();
      return layout.blocks;
    },

    /** The section's blocks become exactly `body.blocks`, in one transaction under the section's row lock. */
    replaceBlocks: (ctx: RequestContext, sectionId: string, body: BlocksBody) =>
      transaction(ctx, async (tx) => {
        // Concurrent replacements of one section queue here: each sees the other's result whole.
        if (!(await sectionTree.lock(tx, sectionId, ctx.mediaId))) throw magazinesErrors.sectionNotFound();
        await sectionTree.replace(
          tx,
          'blocks',
          sectionId,
          inOrder(body.blocks).map((b) => ({ ...(b.id && { id: b.id }), mediaId: ctx.mediaId, kind: b.kind, settings: b.settings ?? {} })),
        );
        return (await repo.layout(tx, ctx.mediaId, sectionId))!.blocks;
      }),

    getBlock: (ctx: RequestContext, id: string) => loadBlock(ctx.db, ctx.mediaId, id),

    updateBlock: (ctx: RequestContext, id: string, patch: BlockUpdate) =>
      transaction(ctx, async (tx) => {
        if (!(await blockRecord.lock(tx, id, ctx.mediaId))) throw magazinesErrors.sectionBlockNotFound();
        await repo.updateBlock(tx, id, {
          ...(patch.kind !== undefined && { kind: patch.kind }),
          ...(patch.settings !== undefined && { settings: patch.settings }),
        });
        return loadBlock(tx, ctx.mediaId, id);
      }),

    listSlots: async (ctx: RequestContext, blockId: string) => (await loadBlock(ctx.db, ctx.mediaId, blockId)).slots,

    /** The block's slots become exactly `body.slots`: every content checked first, then one transaction under the block's row lock. */
    replaceSlots: (ctx: RequestContext, blockId: string, body: SlotsBody) =>
      transaction(ctx, async (tx) => {
        if (!(await blockRecord.lock(tx, blockId, ctx.mediaId))) throw magazinesErrors.sectionBlockNotFound();
        await assertContents(tx, ctx.mediaId, body.slots.map((s, i) => ({ path: `slots.${i}.content_id`, id: s.content_id })));
        await blockRecord.replace(tx, 'slots', blockId, inOrder(body.slots).map((s) => ({ ...(s.id && { id: s.id }), contentId: s.content_id })));
        return (await loadBlock(tx, ctx.mediaId, blockId)).slots;
      }),

    // ---- Section contents

    async listIssueContents(ctx: RequestContext, issueId: string, query: PagingQuery) {
      await loadIssue(ctx.db, ctx.mediaId, issueId);
      return repo.listIssueContents(ctx.db, ctx.mediaId, issueId, query);
    },

    async listSectionContents(ctx: RequestContext, sectionId: string, query: PagingQuery) {
      await loadSection(ctx.db, ctx.mediaId, sectionId);
      return repo.listSectionContents(ctx.db, ctx.mediaId, sectionId, query);
    },

    /** The issue's section contents whose content's title, lead or body matches `q` (any status), most relevant first. */
    async searchIssueContents(ctx: RequestContext, issueId: string, query: IssueContentsSearchQuery) {
      await loadIssue(ctx.db, ctx.mediaId, issueId);
      const { locales } = await tenancy.cachedMedia(ctx);
      const search = { hits: docs.searchHits(locales), matchedBy: (contentId: SQL) => docs.searchMatchedBy(locales, contentId), configsKey: searchConfigsOf(locales).join('_') };
      return repo.searchIssueContents(ctx.db, ctx.mediaId, issueId, query, query.q, search, query.sort);
    },

    createSectionContent: (ctx: RequestContext, issueId: string, input: SectionContentCreate) =>
      transaction(ctx, async (tx) => {
        await loadIssue(tx, ctx.mediaId, issueId);
        const section = await sectionOf(tx, ctx.mediaId, issueId, input.section_id);
        if (!(await sectionTree.lock(tx, section.id, ctx.mediaId))) throw magazinesErrors.sectionNotFound();
        await assertContents(tx, ctx.mediaId, [{ path: 'content_id', id: input.content_id }]);
        const id = await repo.insertSectionContent(tx, {
          mediaId: ctx.mediaId,
          issueId,
          sectionId: section.id,
          contentId: input.content_id,
          position: input.position ?? (await repo.nextPosition(tx, 'contents', section.id)),
        });
        return loadSectionContent(tx, ctx.mediaId, id);
      }),

    async removeSectionContent(ctx: RequestContext, id: string): Promise<void> {
      if (!(await transaction(ctx, (tx) => sectionContentRecord.softDelete(tx, id, ctx.mediaId)))) throw magazinesErrors.sectionContentNotFound();
    },

    // ---- Reader and Public

    async readerIssue(ctx: RequestContext, id: string) {
      const issue = await loadIssue(ctx.db, ctx.mediaId, id);
      return { issue, sections: await repo.allSections(ctx.db, ctx.mediaId, id) };
    },

    readerSection: (ctx: RequestContext, id: string) => loadSection(ctx.db, ctx.mediaId, id),

    /** The section's published contents in position order (of the issue, when named), a Reader list page. */
    async publishedSectionContents(ctx: RequestContext, sectionId: string, query: PagingQuery, issueId?: string) {
      if (issueId) await sectionOf(ctx.db, ctx.mediaId, issueId, sectionId);
      else await loadSection(ctx.db, ctx.mediaId, sectionId);
      return listSection(ctx, sectionId, query);
    },

    /** The media of a live issue (a Public path names the issue alone), else 404 issue_not_found. */
    async issueMediaOf(id: string): Promise<string> {
      const mediaId = await repo.issueMedia(db, id);
      if (!mediaId) throw magazinesErrors.issueNotFound();
      return mediaId;
    },

    /** The media of a live section (a Public path names the section alone), else 404 section_not_found. */
    async sectionMediaOf(id: string): Promise<string> {
      const mediaId = await repo.sectionMedia(db, id);
      if (!mediaId) throw magazinesErrors.sectionNotFound();
      return mediaId;
    },

    /**
     * Public: the published contents of a live section of `ctx.mediaId`, the media the Public tree
     * found from the section (sectionMediaOf), so no second section lookup: one statement.
     */
    publicSectionContents: (ctx: RequestContext, sectionId: string, query: PagingQuery) => listSection(ctx, sectionId, query),

    /** Published contents of the issue's sections matching `q`, docs' Reader search narrowed to the issue. */
    async searchIssue(ctx: RequestContext, issueId: string, query: ReaderSearchQuery, mediaLocales: readonly string[]) {
      await loadIssue(ctx.db, ctx.mediaId, issueId);
      return docs.searchWithin(ctx, query, mediaLocales, { name: 'issue', where: repo.inIssue, params: { issue: issueId } });
    },

    /** The section's blocks with their slots, and the published contents the slots name (the others are served empty). */
    async publishedLayout(ctx: RequestContext, issueId: string, sectionId: string) {
      await sectionOf(ctx.db, ctx.mediaId, issueId, sectionId);
      const layout = (await repo.layout(ctx.db, ctx.mediaId, sectionId))!;
      const ids = [...new Set(layout.blocks.flatMap((b) => b.slots.map((s) => s.contentId)))];
      return { blocks: layout.blocks, contents: await docs.publishedAmong(ctx, ids) };
    },

  };
}

export type IssuesService = ReturnType<typeof createIssuesService>;
