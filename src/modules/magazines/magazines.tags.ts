import type { Tag } from '../../shared/http/route.js';

/** The OpenAPI tags of the magazines module's routes, each described once. */
export const magazinesTags = {
  issueTypes: { name: 'Magazines: Issue types', description: 'Kinds of issue (monthly, special…): a key and a name.' },
  issues: {
    name: 'Magazines: Issues',
    description: 'Magazine issues of a workspace: kind, colour, PDF, one entry per language; soft delete and restore of the whole tree.',
  },
  sections: { name: 'Magazines: Sections', description: "An issue's sections: a key, a position and one entry per language." },
  sectionBlocks: {
    name: 'Magazines: Section blocks',
    description: "A section's layout: ordered blocks of a named kind with settings, each with ordered slots holding contents.",
  },
  sectionContents: { name: 'Magazines: Section contents', description: 'The contents listed in a section, in position order.' },
  readerIssues: { name: 'Reader: Issues', description: 'Issues and their sections, section blocks and published contents.' },
  public: { name: 'Public: Docs (deprecated)', description: 'Deprecated anonymous reads; each names its Reader successor.' },
} satisfies Record<string, Tag>;
