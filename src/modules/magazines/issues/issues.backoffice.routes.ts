import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { backofficeResource, orderedSetRoutes } from '../../../shared/http/resource.js';
import { idParams } from '../../../shared/schemas.js';
import { magazinesTags } from '../magazines.tags.js';
import type { IssueMappers } from './issues.mappers.js';
import {
  blockUpdateBody,
  blocksBody,
  issueContentsSearchQuery,
  issueCreateBody,
  issueSchema,
  issueUpdateBody,
  sectionBlockSchema,
  sectionContentCreateBody,
  sectionContentSchema,
  sectionCreateBody,
  sectionSchema,
  sectionUpdateBody,
  slotSchema,
  slotsBody,
} from './issues.schemas.js';
import type { IssuesService } from './issues.service.js';
import { blockRecord, issueRecord, sectionContentRecord, sectionRecord } from './issues.repository.js';
import { issueRevisions } from './issues.revisions.js';
import { revisionRoutes } from '../../../shared/http/revisions.js';

/** The permissions of every route here: magazines' read and write. */
const access = { read: 'magazines:read', write: 'magazines:write' } as const;

/** /magazines/v2: issues, sections, section blocks, slots and section contents. */
export const issuesBackofficeRoutes: FastifyPluginAsyncZod<{ issues: IssuesService; mappers: IssueMappers }> = async (app, { issues, mappers }) => {
  const { toIssue, toSection, toBlock, toSlot, toSectionContent } = mappers;
  // Every write of an issue or of a part of its tree (sections, blocks, slots, section contents) adds a revision of the issue.
  const source = issueRevisions(issues, mappers);
  const ofPart = (part: string) => ({ source, part });

  // ---- Issues
  const issue = backofficeResource(app, {
    path: '/issues',
    kind: 'issue',
    revises: { source },
    lock: issueRecord,
    names: { one: 'Issue', many: 'Issues' },
    tag: magazinesTags.issues,
    item: issueSchema,
    map: toIssue,
    ...access,
  });
  issue.listUnder(
    { url: '/workspaces/:workspace_id/issues', operationId: 'listIssues', summary: 'List issues of a workspace', description: 'Live issues of the workspace, newest first.' },
    issues.listIssues,
  );
  issue.createUnder(
    {
      url: '/workspaces/:workspace_id/issues',
      operationId: 'createIssue',
      summary: 'Create an issue in a workspace',
      description: 'The issue type, asset images of visuals and the workspace must be the media’s (404 otherwise).',
      body: issueCreateBody,
    },
    issues.createIssue,
  );
  issue.get({ summary: 'Issue by id' }, issues.getIssue);
  issue.update(
    {
      summary: 'Update an issue',
      description: 'Fields left out keep their value; `locales`, when sent, is the complete set of language entries.',
      body: issueUpdateBody,
      errors: [409],
    },
    issues.updateIssue,
  );
  issue.remove(
    { summary: 'Delete an issue (soft)', description: 'Its locales, sections, blocks, slots and section contents go with it, under one deleted_at.' },
    issues.removeIssue,
  );
  issue.restore(
    {
      summary: 'Restore a deleted issue',
      description: 'Brings back exactly what its delete took (a section deleted on its own before stays deleted). Idempotent.',
      errors: [409],
    },
    issues.restoreIssue,
  );

  // ---- Sections
  const section = backofficeResource(app, {
    path: '/sections',
    kind: 'section',
    revises: ofPart('sections'),
    lock: sectionRecord,
    names: { one: 'Section', many: 'Sections' },
    tag: magazinesTags.sections,
    item: sectionSchema,
    map: toSection,
    ...access,
  });
  section.listUnder(
    { url: '/issues/:id/sections', operationId: 'listSections', summary: 'Sections of an issue', description: 'Live sections of the issue in position order.' },
    issues.listSections,
  );
  section.createUnder(
    {
      url: '/issues/:id/sections',
      operationId: 'createSection',
      summary: 'Create a section in an issue',
      description: 'The key is unique among the issue’s live sections (409).',
      body: sectionCreateBody,
      errors: [409],
    },
    issues.createSection,
  );
  section.get({ summary: 'Section by id' }, issues.getSection);
  section.update(
    { summary: 'Update a section', description: 'Fields left out keep their value; `locales` is the complete set.', body: sectionUpdateBody, errors: [409] },
    issues.updateSection,
  );
  section.remove({ summary: 'Remove a section (soft)', description: 'Its locales, blocks, slots and contents go with it.' }, issues.removeSection);
  // Section contents (their routes under an issue are below): a section's own list sits with the
  // section's routes, where the OpenAPI document has always listed it.
  const sectionContent = backofficeResource(app, {
    path: '/section-contents',
    kind: 'section_content',
    revises: ofPart('sections.contents'),
    lock: sectionContentRecord,
    names: { one: 'SectionContent', many: 'SectionContents' },
    tag: magazinesTags.sectionContents,
    item: sectionContentSchema,
    map: toSectionContent,
    ...access,
  });
  sectionContent.listUnder(
    { url: '/sections/:id/contents', operationId: 'listSectionContentsOfSection', summary: 'Contents of a section', description: 'The section’s content entries in position order.' },
    issues.listSectionContents,
  );

  // ---- Section blocks and slots
  orderedSetRoutes(app, {
    url: '/sections/:id/blocks',
    params: idParams,
    tag: magazinesTags.sectionBlocks,
    ...access,
    record: { kind: 'section', revises: ofPart('sections') },
    lock: sectionRecord,
    get: { operationId: 'listSectionBlocks', summary: 'Blocks of a section', description: 'The whole set in position order, each with its slots.' },
    replace: {
      operationId: 'replaceSectionBlocks',
      summary: 'Replace the blocks of a section',
      description:
        'Entries with an `id` are kept and updated, entries without one created, missing ones removed (with their slots); stored in `position` order as 0..n-1. The whole set is validated first and written in one transaction; concurrent replacements of one section apply one after the other.',
      body: blocksBody,
    },
    load: (ctx, params) => issues.listBlocks(ctx, params.id),
    store: (ctx, params, body) => issues.replaceBlocks(ctx, params.id, body),
    item: sectionBlockSchema,
    map: toBlock,
  });
  const block = backofficeResource(app, {
    path: '/section-blocks',
    kind: 'section_block',
    revises: ofPart('sections.blocks'),
    lock: blockRecord,
    names: { one: 'SectionBlock', many: 'SectionBlocks' },
    tag: magazinesTags.sectionBlocks,
    item: sectionBlockSchema,
    map: toBlock,
    ...access,
  });
  block.get({ summary: 'Section block by id' }, issues.getBlock);
  block.update({ summary: 'Update a section block', description: 'Its kind or settings; fields left out keep their value.', body: blockUpdateBody }, issues.updateBlock);
  orderedSetRoutes(app, {
    url: '/section-blocks/:id/slots',
    params: idParams,
    tag: magazinesTags.sectionBlocks,
    ...access,
    record: { kind: 'section_block', revises: ofPart('sections.blocks') },
    lock: blockRecord,
    get: { operationId: 'listBlockSlots', summary: 'Slots of a section block' },
    replace: {
      operationId: 'replaceBlockSlots',
      summary: 'Replace the slots of a section block',
      description:
        'Every `content_id` must be a content of the media (404 naming each other one, nothing written). Entries with an `id` are kept, others created, missing ones removed; stored in `position` order as 0..n-1, in one transaction.',
      body: slotsBody,
    },
    load: (ctx, params) => issues.listSlots(ctx, params.id),
    store: (ctx, params, body) => issues.replaceSlots(ctx, params.id, body),
    item: slotSchema,
    map: toSlot,
  });

  // ---- Section contents
  sectionContent.listUnder(
    { url: '/issues/:id/section-contents', operationId: 'listSectionContents', summary: 'Section contents of an issue', description: 'Every section content of the issue, newest first.' },
    issues.listIssueContents,
  );
  sectionContent.listUnder(
    {
      url: '/issues/:id/section-contents/search',
      operationId: 'searchSectionContents',
      summary: 'Search section contents of an issue',
      description: "Section contents whose content's title, lead or body matches `q` (docs' search, any status), most relevant first.",
      querystring: issueContentsSearchQuery,
    },
    issues.searchIssueContents,
  );
  sectionContent.createUnder(
    {
      url: '/issues/:id/section-contents',
      operationId: 'createSectionContent',
      summary: 'Add a content to a section',
      description: 'The section must be one of the issue’s and the content the media’s (404 otherwise); a content appears once per section (409).',
      body: sectionContentCreateBody,
      errors: [409],
    },
    issues.createSectionContent,
  );
  sectionContent.remove({ summary: 'Remove a content from its section (soft)', version: null }, issues.removeSectionContent);

  revisionRoutes(app, { path: '/issues', names: { one: 'Issue' }, label: 'issue', source, tag: magazinesTags.issues, ...access });
};
