import type { Tag } from '../../shared/http/route.js';

/** The OpenAPI tags of the docs module's routes, each described once. */
export const docsTags = {
  contentTypes: { name: 'Docs: Content types', description: 'Kinds of content (article, live blog…): a key and a name.' },
  templates: {
    name: 'Docs: Templates',
    description: 'Layouts of a content type: the block kinds and metadata keys their contents may carry.',
  },
  contents: {
    name: 'Docs: Contents',
    description: 'Articles: one entry per language with title, lead, SEO, visual and authors; categories; soft delete and restore.',
  },
  contentBlocks: {
    name: 'Docs: Content blocks',
    description: "The body of a content's language entry: ordered blocks of the shared block kinds.",
  },
  contentCorrections: {
    name: 'Docs: Content corrections',
    description: "Public correction notes on a content, per language, served to readers with the content and in RSS.",
  },
  contentPreviewLinks: {
    name: 'Docs: Content preview links',
    description: 'Short-lived, revocable tokens with which the Reader serves one content as it is now, whatever its status.',
  },
  contentMetadata: { name: 'Docs: Content metadata', description: "Key/value metadata of a content, replaced as a whole." },
  readerContents: {
    name: 'Reader: Contents',
    description: 'Published contents in one language, their search, and question results and votes.',
  },
  public: { name: 'Public: Docs (deprecated)', description: 'Deprecated anonymous reads; each names its Reader successor.' },
} satisfies Record<string, Tag>;
