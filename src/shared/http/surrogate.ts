import type { FastifyReply, FastifyRequest } from 'fastify';
import { routeOf } from './route-options.js';

/**
 * Surrogate keys (issue 17, cache purge): a Reader or Public answer names the records it holds
 * (`content:<id>`, `category:<id>` from its assocs) and, for a list, its collection (`content`),
 * in a `Surrogate-Key` header, so that a CDN can purge exactly what a write changed: the
 * Backoffice's `purge` webhook events carry the same keys (`<kind>:<id>` and the collection).
 */

/** A collection's path segment as a record kind: `media-blocks` → `media_block`, `people` → `person`. */
export function kindOf(segment: string): string {
  const snake = segment.replace(/-/g, '_');
  if (snake === 'people') return 'person';
  if (snake === 'media') return 'media';
  if (snake.endsWith('ies')) return `${snake.slice(0, -3)}y`;
  if (/(uses|sses|xes|ches|shes)$/.test(snake)) return snake.slice(0, -2);
  return snake.endsWith('s') ? snake.slice(0, -1) : snake;
}

/** Last segments that name a way of reading a collection, not a collection. */
const READS = new Set(['search', 'random', 'results', 'dates', 'contents.xml']);

/** Collections the Reader and Public name otherwise than the Backoffice does. */
const ALIASES: Record<string, string> = { feeds: 'rss_feed', rss: 'rss_feed', menus: 'menu' };

/**
 * The kind of the records a Reader or Public route serves, from its path under the tree's prefix:
 * the last collection segment (`/issues/:id/sections/:section_id/contents` → `content`), a
 * media's own path (`/medias/:media_id`) → `media`, the publisher's top-level `/blocks` →
 * `media_block` (the Backoffice's media blocks).
 */
export function surrogateKindOf(path: string): string | undefined {
  // Under the trees' prefixes: /api/media/v1 (Reader), /api/public/<group>/v<n> (Public).
  const segments = path
    .replace(/^\/api\/media\/v1(?=\/|$)/, '')
    .replace(/^\/api\/public\/[^/]+\/v\d+(?=\/|$)/, '')
    .split('/')
    .filter(Boolean);
  const statics: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (s.startsWith(':')) continue;
    // A media named in the path (Public) is where the records are, not what they are.
    if (s === 'medias' && segments[i + 1] === ':media_id') continue;
    statics.push(s);
  }
  while (statics.length > 0 && READS.has(statics.at(-1)!)) statics.pop();
  if (statics.length === 0) return path.includes(':media_id') ? 'media' : undefined;
  if (statics.length === 1 && statics[0] === 'blocks') return 'media_block';
  const last = statics.at(-1)!;
  return ALIASES[last] ?? kindOf(last);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reader and Public routes: the kind of the records they serve, for their Surrogate-Key. */
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
      if (Array.isArray(items)) keys.items(kindOf(name), items);
    }
  }
  return keys.value;
}

/** A tree's preSerialization hook: a success answer of a route with a kind gets its `Surrogate-Key`. */
export function surrogateKeyHook(req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  // A plain callback: nothing here waits, so no promise per answer.
  const kind = routeOf(req).config.surrogateKind;
  if (kind && reply.statusCode < 300) {
    const keys = surrogateKeys(kind, payload);
    if (keys) reply.header('surrogate-key', keys);
  }
  done(null, payload);
}
