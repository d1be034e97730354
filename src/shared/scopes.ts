/** Reader scopes: what a bearer token may do on /api/media/v1. */
export const SCOPES = ['media:read', 'account:read', 'account:write', 'mailer:send'] as const;
export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'media:read': "Read the media's published data (categories, profile types, topics, media overview)",
  'account:read': "Read the signed-in reader's own account, profile, entitlements, favorites and subscriptions",
  'account:write': "Change the signed-in reader's own profile, favorites, devices and subscriptions",
  'mailer:send': "Send a message from one of the media's mail templates (share a content, contact), to at most 10 recipients",
};

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** Who is calling on the Reader interface, once a bearer token has been accepted. */
export interface ReaderPrincipal {
  /** `client`: our own token from client credentials; `reader`: an identity provider's token. */
  kind: 'client' | 'reader';
  mediaId: string;
  /** Stable id for rate limits and logs: `client:<id>` or `<provider id>:<sub>`. */
  subject: string;
  scopes: Scope[];
  clientId?: string;
  providerId?: string;
  /** The provider's subject identifier for a reader. */
  sub?: string;
  email?: string | undefined;
  /** The provider vouches for `email` (the OpenID `email_verified` claim). */
  emailVerified?: boolean | undefined;
  name?: string | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reader routes: the scope the bearer token must carry. */
    scope?: Scope;
    /** Reader routes: a signed-in reader is needed, not just an application (403 otherwise). */
    readerRequired?: boolean;
    /** Reader routes open without a bearer token (token endpoint, JWKS, provider list). */
    anonymous?: boolean;
    /** Reader routes that need no x-service-media-id (the token endpoint finds the media from the client). */
    mediaOptional?: boolean;
    /** Reader routes that also take the media from `?media_id=` when the header is absent (feeds, sitemaps). */
    mediaFromQuery?: boolean;
  }
  interface FastifyRequest {
    /** The media named by x-service-media-id, checked to exist. */
    mediaId: string;
    /** The accepted bearer token's principal. */
    bearer: ReaderPrincipal;
  }
}
