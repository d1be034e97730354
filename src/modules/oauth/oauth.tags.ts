import type { Tag } from '../../shared/http/route.js';

/** The OpenAPI tags of the OAuth module's routes, each described once. */
export const oauthTags = {
  clients: {
    name: 'Core: OAuth clients',
    description:
      'Applications that get Reader tokens: confidential (with a secret, shown once) or public; revoking stops their tokens.',
  },
  providers: {
    name: 'Core: OAuth providers',
    description: 'External identity providers readers sign in with; their client secrets are never shown.',
  },
  signingKeys: {
    name: 'Core: OAuth signing keys',
    description: "The media's ES256 keys that sign its access tokens, and their rotation.",
  },
  reader: {
    name: 'Reader: OAuth',
    // The readerhub's /oauth/verify and /oauth/userinfo share this tag.
    description: 'Tokens, identity providers and the signed-in reader behind a token.',
  },
} satisfies Record<string, Tag>;
