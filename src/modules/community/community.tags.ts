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
  events: { name: 'Community: Events', description: 'Events: profiles with a capacity, registration and schedules (dated slots or recurrence rules).' },
  organizations: { name: 'Community: Organizations', description: 'Organizations: profiles with a name and legal name.' },
  people: { name: 'Community: People', description: 'People (spec 2.13): profiles with names and pronoun.' },
  projects: { name: 'Community: Projects', description: 'Projects: profiles with a name and the days they start and end.' },
  readerEvents: { name: 'Reader: Events', description: 'Published events, their dates, registration and participants.' },
  readerOrganizations: { name: 'Reader: Organizations', description: 'Published organizations.' },
  readerPeople: { name: 'Reader: People', description: 'Published people and the people search.' },
  readerProjects: { name: 'Reader: Projects', description: 'Published projects.' },
  public: {
    name: 'Public: Community',
    description: 'Deprecated: the profile types and published events, organizations, people and projects of a media, and the announcements, distributions and webpages of an organization; use the Reader operations.',
  },
} satisfies Record<string, Tag>;
