import { randomUUID } from 'node:crypto';
import type { Client } from './factories.js';

// HTTP factories of the community area: profile types and profiles made through the Backoffice.

const short = () => randomUUID().slice(0, 8);

const created = async <T>(res: Awaited<ReturnType<Client['post']>>, what: string): Promise<T> => {
  if (res.statusCode !== 201) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json().data as T;
};

export const ALL_FLAGS = Object.fromEntries(
  ['phone', 'email', 'bluesky', 'linkedin', 'website', 'facebook', 'twitter', 'instagram', 'country', 'state', 'city', 'street', 'location'].map((f) => [`has_${f}`, true]),
);

export type ProfileKindPath = 'events' | 'organizations' | 'people' | 'projects';
export const SINGULAR = { events: 'event', organizations: 'organization', people: 'person', projects: 'project' } as const;

/** A profile type of the kind, every contact and address field allowed unless the body says otherwise. */
export async function createProfileType(api: Client, kind: ProfileKindPath, body: Record<string, unknown> = {}) {
  return created<{ id: string; key: string; kind: string }>(
    await api.post('/community/v2/profile-types', { kind: SINGULAR[kind], key: `${kind}-${short()}`, name: `Type ${short()}`, ...ALL_FLAGS, ...body }),
    'createProfileType',
  );
}

/** The kind's own required fields. */
export const OWN_FIELDS: Record<ProfileKindPath, () => Record<string, unknown>> = {
  people: () => ({ first_name: 'Ada', last_name: `Lovelace ${short()}` }),
  organizations: () => ({ name: `Org ${short()}`, legal_name: 'Org SA' }),
  projects: () => ({ name: `Project ${short()}`, starts_on: '2026-01-01', ends_on: '2026-12-31' }),
  events: () => ({ name: `Event ${short()}`, capacity: 100, registration_open: true, time_zone: 'Europe/Paris' }),
};

export interface CommunityFixture {
  workspaceId: string;
  statuses: Record<string, string>;
  types: Record<ProfileKindPath, string>;
}

export async function communityFixture(api: Client, workspaceId: string): Promise<CommunityFixture> {
  const res = await api.get('/core/v2/statuses?limit=100');
  const statuses = Object.fromEntries((res.json().data as Array<{ id: string; key: string }>).map((s) => [s.key, s.id]));
  const types = {} as Record<ProfileKindPath, string>;
  for (const kind of ['events', 'organizations', 'people', 'projects'] as const) types[kind] = (await createProfileType(api, kind)).id;
  return { workspaceId, statuses, types };
}

/** A published profile of the kind (its own required fields made up), unless the body says otherwise. */
export async function createProfile(api: Client, f: CommunityFixture, kind: ProfileKindPath, body: Record<string, unknown> = {}) {
  const { profile, ...rest } = body as { profile?: Record<string, unknown> };
  return created<Record<string, unknown> & { id: string }>(
    await api.post(`/community/v2/${kind}`, {
      profile: { workspace_id: f.workspaceId, profile_type_id: f.types[kind], status_id: f.statuses.published, ...profile },
      ...OWN_FIELDS[kind](),
      ...rest,
    }),
    `createProfile(${kind})`,
  );
}

/** A published person of the media, with its own profile type: a content author. */
export async function createPerson(api: Client, workspaceId: string, body: Record<string, unknown> = {}) {
  const res = await api.get('/core/v2/statuses?limit=100');
  const published = (res.json().data as Array<{ id: string; key: string }>).find((s) => s.key === 'published')!.id;
  const type = await createProfileType(api, 'people');
  return created<Record<string, unknown> & { id: string }>(
    await api.post('/community/v2/people', {
      profile: { workspace_id: workspaceId, profile_type_id: type.id, status_id: published },
      first_name: 'Ada',
      last_name: `Author ${short()}`,
      ...body,
    }),
    'createPerson',
  );
}
