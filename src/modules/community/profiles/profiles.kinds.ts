/** The four kinds of community profile, as their paths name them (`/community/v2/{kind}`). */
export const PROFILE_PATH_KINDS = ['events', 'organizations', 'people', 'projects'] as const;
export type ProfileKind = (typeof PROFILE_PATH_KINDS)[number];

/** The kind as a profile type (and the Reader's `kind` field) names it. */
export const SINGULAR = { events: 'event', organizations: 'organization', people: 'person', projects: 'project' } as const;
export type ProfileTypeKind = (typeof SINGULAR)[ProfileKind];
