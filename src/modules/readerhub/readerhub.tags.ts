import type { Tag } from '../../shared/http/route.js';
import { oauthTags } from '../oauth/index.js';
import { publisherTags } from '../publisher/index.js';

/** The OpenAPI tags of the readerhub module's routes, each described once. */
export const readerhubTags = {
  readers: {
    name: 'ReaderHub: Readers',
    description: "Reader accounts of the key's media, read-only: where the ids that entitlements need are found.",
  },
  entitlements: {
    name: 'ReaderHub: Entitlements',
    description: 'Products granted to readers for a window of time; revoking keeps the record.',
  },
  invitations: {
    name: 'ReaderHub: Invitations',
    description: 'Invitations for someone to become a reader, valid until they expire; sending them is up to the caller.',
  },
  // Verify and User info sit with the token endpoint in the oauth module's tag, described there.
  readerOAuth: oauthTags.reader,
  readerAccounts: {
    name: 'Reader: Accounts',
    description: "The signed-in reader's own profile, its metadata and entitlements.",
  },
  readerDevices: { name: 'Reader: Devices', description: "The signed-in reader's devices for push notifications." },
  readerFavorites: { name: 'Reader: Favorites', description: 'Contents and profiles the signed-in reader keeps.' },
  // One tag with the publisher's topic list: described there, once.
  readerTopics: publisherTags.readerTopics,
  readerInvitations: { name: 'Reader: Invitations', description: 'Invitations as the invitee opens them, before signing in.' },
} satisfies Record<string, Tag>;
