import { z } from 'zod';
import { aggregateRows, type RevisionSource } from '../../../shared/revisions.js';
import { magazinesErrors } from '../magazines.errors.js';
import type { IssueMappers } from './issues.mappers.js';
import { issueTree } from './issues.repository.js';
import { issueSchema, sectionBlockSchema, sectionSchema } from './issues.schemas.js';
import type { IssuesService } from './issues.service.js';

/** An issue's revision: its Backoffice shape with its sections, each with its blocks and their slots. */
export const issueRevisionRecord = issueSchema
  .extend({ sections: z.array(sectionSchema.extend({ blocks: z.array(sectionBlockSchema) })) })
  .meta({ id: 'IssueRevisionRecord' });

const rows = aggregateRows(issueTree);

/** The revisions of issues: the whole tree (entries, sections with theirs, blocks, slots, section contents). */
export function issueRevisions(issues: IssuesService, mappers: IssueMappers): RevisionSource {
  return {
    kind: 'issue',
    schema: issueRevisionRecord,
    keys: { locales: 'locale', sections: 'id', 'sections.locales': 'locale', 'sections.blocks': 'id', 'sections.blocks.slots': 'id' },
    rows,
    notFound: magazinesErrors.issueNotFound,
    load: async (ctx, id) => ({
      ...mappers.toIssue(await issues.getIssue(ctx, id)),
      sections: (await issues.sectionLayouts(ctx, id)).map(({ section, blocks }) => ({ ...mappers.toSection(section), blocks: blocks.map(mappers.toBlock) })),
    }),
  };
}
