import type { Tag } from '../../shared/http/route.js';

/** The OpenAPI tags of the community module's routes, each described once. */
export const communityTags = {
  profileTypes: {
    name: 'Community: Profile types',
    description: 'What a community profile is (event, organization, person, project): its contact fields and metadata.',
  },
  readerProfileTypes: {
    name: 'Reader: Profile types',
    description: 'The profile types of the media, with their contact fields and metadata.',
  },
} satisfies Record<string, Tag>;
