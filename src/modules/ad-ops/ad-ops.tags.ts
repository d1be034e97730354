import type { Tag } from '../../shared/http/route.js';
import type { RecordArea } from '../../shared/record/index.js';

/** The OpenAPI tags of the ad-ops module's routes, each described once. */
export const adOpsTags = {
  advertisers: { name: 'Ad-ops: Advertisers', description: 'Who buys ads from the media: contact and whether their ads may run.' },
  ads: {
    name: 'Ad-ops: Ads',
    description: 'An advertiser\'s ad: its priority (weight when ads are drawn), category and the window it runs in, read in its time zone.',
  },
  placements: { name: 'Ad-ops: Placements', description: 'Where an ad runs: on the whole media or on one magazine issue, optionally at a position.' },
  creatives: { name: 'Ad-ops: Creatives', description: 'What an ad shows: an uploaded image or sanitized HTML, and where a click leads.' },
  adCategories: { name: 'Ad-ops: Ad categories', description: 'The categories ads are sold in.' },
  public: {
    name: 'Public: Ad-ops (deprecated)',
    description: 'Active advertisers and running ads drawn at random, for legacy sites: use the Reader random ads instead.',
  },
  readerAds: {
    name: 'Reader: Ads',
    description: 'Running ads drawn at random, weighted by priority, each with one of its creatives. Nothing is tracked.',
  },
} satisfies Record<string, Tag>;

/** The Backoffice permissions every ad-ops record shares. */
export const adOpsArea = { read: 'ad-ops:read', write: 'ad-ops:write' } satisfies RecordArea;
