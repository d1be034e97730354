import type { FastifyReply, FastifyRequest } from 'fastify';
import { routeOf } from './route-options.js';

/**
 * Surrogate keys (issue 17, cache purge): a Reader or Public answer names the records it holds
 * (`content:<id>`, `category:<id>` from its assocs) and, for a list, its collection (`content`),
 * in a `Surrogate-Key` header, so that a CDN can purge exactly what a write changed: the
 * Backoffice's `purge` webhook events carry the same keys (`<kind>:<id>` and the collection).
 */

/**
 * The kind of the records a Reader answer's `assocs` hold, by the assoc's name: every assoc a
 * Reader or Public answer declares is named here (the route-behaviour test holds them to it).
 */
export const ASSOC_KINDS: Readonly<Record<string, string>> = {
  categories: 'category',
  contents: 'content',
  events: 'event',
  profile_types: 'profile_type',
  templates: 'template',
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reader and Public routes: the kind of the records they serve (their declared `serves`), for their Surrogate-Key. */
    surrogateKind?: string;
  }
}

/** At most this many keys in one header (CDNs cap its size): a page of 100 with its assocs fits. */
const MAX_KEYS = 400;

/** The keys of one answer, written into the header's value as they are found. */
class KeyList {
  value = '';
  count = 0;
  /** The ids named so far, per kind: flat strings hashed once (not the keys, new strings each, hashed afresh). */
  private readonly seen = new Map<string, Set<string>>();

  /** The collection's key (a list's). */
  collection(kind: string): void {
    this.value = kind;
    this.count = 1;
  }

  /** `<kind>:<id>` of each item that has an id, once per kind and id, up to MAX_KEYS. */
  items(kind: string, items: readonly unknown[]): void {
    let ids = this.seen.get(kind);
    if (!ids) this.seen.set(kind, (ids = new Set()));
    const prefix = `${kind}:`;
    for (let i = 0; i < items.length && this.count < MAX_KEYS; i++) {
      const id = (items[i] as { id?: unknown } | null)?.id;
      if (typeof id !== 'string' || ids.has(id)) continue;
      ids.add(id);
      this.value = this.count === 0 ? prefix + id : `${this.value} ${prefix}${id}`;
      this.count++;
    }
  }
}

/**
 * The `Surrogate-Key` value of an answer body `{data, assocs?}` (keys separated by a space, empty
 * when there is none): each record's `<kind>:<id>` (a list's items, a record), each assoc's, and a
 * list's collection key (`<kind>`, so that a new record purges it) first.
 */
export function surrogateKeys(kind: string, body: unknown): string {
  if (typeof body !== 'object' || body === null || !('data' in body)) return '';
  const { data, assocs } = body as { data: unknown; assocs?: Record<string, unknown> };
  const keys = new KeyList();
  if (Array.isArray(data)) {
    keys.collection(kind);
    keys.items(kind, data);
  } else {
    keys.items(kind, [data]);
  }
  if (assocs && typeof assocs === 'object') {
    for (const name in assocs) {
      const items = assocs[name];
      const kind = ASSOC_KINDS[name];
      if (kind && Array.isArray(items)) keys.items(kind, items);
    }
  }
  return keys.value;
}

/** A tree's preSerialization hook: a success answer of a route with a kind gets its `Surrogate-Key`. */
export function surrogateKeyHook(req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  // A plain callback: nothing here waits, so no promise per answer.
  const kind = routeOf(req).config.surrogateKind;
  // A preview's answer is no cache's to keep, so it names no record a purge would reach.
  if (kind && reply.statusCode < 300 && !req.preview) {
    const keys = surrogateKeys(kind, payload);
    if (keys) reply.header('surrogate-key', keys);
  }
  done(null, payload);
}
