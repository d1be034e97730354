export const AREAS = ['docs', 'magazines', 'core', 'ad-ops', 'community', 'messenger', 'publisher', 'readerhub', 'admin'] as const;
export type Area = (typeof AREAS)[number];
export type Permission = `${Area}:${'read' | 'write'}`;

export const ROLES = ['admin', 'editor', 'ad_manager', 'messenger', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const readWrite = (...areas: Area[]): Permission[] => areas.flatMap((a) => [`${a}:read`, `${a}:write`] as Permission[]);

// CONVENTIONS, Authentication: the built-in roles and what each may do.
const GRANTS: Record<Role, ReadonlySet<Permission>> = {
  admin: new Set(readWrite(...AREAS)),
  editor: new Set(readWrite('docs', 'magazines', 'core', 'community', 'publisher')),
  ad_manager: new Set(readWrite('ad-ops')),
  messenger: new Set(readWrite('messenger')),
  // Readers' personal data (readerhub) and credentials metadata (admin) stay out of view.
  viewer: new Set(AREAS.filter((a) => a !== 'readerhub' && a !== 'admin').map((a) => `${a}:read` as Permission)),
};

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

export const can = (role: string, permission: Permission): boolean =>
  isRole(role) && GRANTS[role].has(permission);

export const isPermission = (value: unknown): value is Permission =>
  typeof value === 'string' &&
  /^[a-z-]+:(read|write)$/.test(value) &&
  (AREAS as readonly string[]).includes(value.split(':')[0]!);

/** Who is calling on the Backoffice, once a key has been accepted. */
export interface KeyPrincipal {
  keyId: string;
  mediaId: string;
  role: Role;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a Backoffice key's role must grant to call the route. */
    permission?: Permission;
    /** The mail webhook also takes the key as `?api_key=` (spec 5.2). */
    apiKeyInQuery?: boolean;
  }
}
