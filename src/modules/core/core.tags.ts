import type { Tag } from '../../shared/http/route.js';

/** The OpenAPI tags of the core module's routes, each described once. */
export const coreTags = {
  media: { name: 'Core: Media', description: "The key's own media: its name and the languages it publishes in." },
  workspaces: { name: 'Core: Workspaces', description: 'Workspaces of the media: most records belong to one.' },
  statuses: { name: 'Core: Statuses', description: 'Statuses of the media; records in a published one reach the Reader.' },
  apiKeys: { name: 'Core: API keys', description: 'Backoffice keys of the media, each with one role; secrets are shown once.' },
  previewTokens: {
    name: 'Core: Preview tokens',
    description: 'Time-travel preview: a short-lived token with which the Reader answers as it will at an instant.',
  },
  categories: { name: 'Core: Categories', description: 'Categories with one locale entry per language, soft delete and restore.' },
  references: { name: 'Core: References', description: "Mappings from an external system's id to one of our records." },
  assets: { name: 'Core: Assets', description: 'Uploaded files: stored once per media and content (SHA-256), typed by their bytes.' },
  assetImages: {
    name: 'Core: Asset images',
    description: 'Image records over an uploaded file: name, crop gravity, credit and caption per language; soft delete and restore.',
  },
  webhooks: {
    name: 'Core: Webhooks',
    description: "The media's outgoing webhooks: record events and cache purges, signed (Standard Webhooks), retried for a day, each try logged.",
  },
  audit: { name: 'Core: Audit log', description: "Every Backoffice write of the media, in the write's own transaction: who, what and which fields." },
  readerMedia: { name: 'Reader: Media', description: 'The media named by x-service-media-id.' },
  readerCategories: { name: 'Reader: Categories', description: 'Live, not archived categories, in the asked language.' },
  readerReferences: { name: 'Reader: References', description: "Resolve an external system's id to one of our records." },
  readerAssets: { name: 'Reader: Assets', description: "The signed-in reader's own image uploads (a profile picture)." },
  delivery: {
    name: 'Assets: Delivery',
    description: 'Images of every media, public: resized and converted on the fly, cached, immutable.',
  },
  operator: {
    name: 'Operator',
    description: "The deployment's medias and their keys, for the holder of OPERATOR_API_KEY; present only when it is set.",
  },
  public: { name: 'Public (deprecated)', description: 'Legacy read-only operations; each names its Reader successor.' },
} satisfies Record<string, Tag>;
