import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import xxhash from 'xxhash-wasm';
import { z } from 'zod';
import type { RouteEntry } from '../../shared/http/route-table.js';
import { AppError } from '../errors.js';
import type { RequestContext } from '../context.js';
import type { AnyRouteDef } from './route.js';
import { routeOf } from './route-options.js';

/** If-None-Match against one strong ETag: a list of tags (weak ones compared weakly) or `*`. */
export function notModified(header: string | string[] | undefined, etag: string): boolean {
  if (typeof header !== 'string') return false;
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}

/** A character past Latin-1: a string without one is hashed as Latin-1, one byte per character. */
const WIDE = /[\u0100-\uffff]/;

// xxHash64 (WebAssembly): an ETag only has to tell two versions of one representation apart, which
// 64 bits do with a chance of 1 in 2^64 of missing a change; @fastify/etag's default is a 32-bit
// FNV-1a; a cryptographic hash guards against nothing here and costs several times more per answer.
// Compiled once, started on import and awaited by buildApp (not a top-level await, which would
// change the order in which the modules that import this one are evaluated).
let hasher: Awaited<ReturnType<typeof xxhash>> | undefined;
/** Resolves once the hasher is ready; buildApp waits for it, so no answer is ever hashed before. */
export const etagsReady: Promise<void> = xxhash().then((api) => {
  hasher = api;
});
const ready = () => {
  if (!hasher) throw new Error('etagOf called before etagsReady resolved');
  return hasher;
};

/** The bytes of a string are written here before hashing, not into a new Buffer each time. */
let scratch = Buffer.allocUnsafe(64 * 1024);
/** Past this many bytes a body is hashed in chunks, so that neither buffer grows to the largest body ever sent. */
const ONE_SHOT_LIMIT = 1024 * 1024;
const CHUNK = 64 * 1024;

const hashBytes = (bytes: Uint8Array): bigint => {
  if (bytes.byteLength <= ONE_SHOT_LIMIT) return ready().h64Raw(bytes);
  const state = ready().create64();
  for (let at = 0; at < bytes.byteLength; at += CHUNK) state.update(bytes.subarray(at, at + CHUNK));
  return state.digest();
};

const hashString = (body: string, encoding: 'latin1' | 'utf8'): bigint => {
  const most = encoding === 'latin1' ? body.length : body.length * 3;
  if (most > ONE_SHOT_LIMIT) return hashBytes(Buffer.from(body, encoding));
  if (most > scratch.length) scratch = Buffer.allocUnsafe(Math.max(most, scratch.length * 2));
  return ready().h64Raw(scratch.subarray(0, scratch.write(body, encoding)));
};

const hex = (hash: bigint) => hash.toString(16).padStart(16, '0');

/**
 * A strong ETag of a body: the xxHash64 (16 hex digits) of its characters. A string whose characters
 * all fit in Latin-1 (every answer in English, French, German, Spanish...) is hashed as those bytes:
 * hashing it as UTF-8 would encode it first, for nothing (V8 knows such a string has no wider
 * character, so the test is free). For ASCII the two are the same bytes. Any other body (bytes, a
 * string with a wider character) is hashed as its UTF-8 bytes and its tag starts with `u`, so that
 * no tag of one kind can equal a tag of the other.
 */
export const etagOf = (body: string | Buffer): string =>
  typeof body === 'string' && !WIDE.test(body)
    ? `"${hex(hashString(body, 'latin1'))}"`
    : `"u${hex(typeof body === 'string' ? hashString(body, 'utf8') : hashBytes(body))}"`;

/**
 * Sends a generated document (a feed, a sitemap) with its validators: `ETag` (its `etagOf`) and
 * `Last-Modified` (the newest record it shows), and 304 with no body to a conditional request
 * that matches (If-None-Match first; If-Modified-Since only without it, RFC 9110 13.2.2).
 */
export function sendConditional(
  req: FastifyRequest,
  reply: FastifyReply,
  doc: {
    /** The document, or how to make it: made only when the answer is not a 304. */
    body: string | (() => string);
    /** What the document is made of, when cheaper to hash than the document (the ETag is then its hash). */
    version?: string;
    type: string;
    lastModified: Date | null;
    maxAge: number;
  },
): FastifyReply {
  const made = typeof doc.body === 'string' ? doc.body : undefined;
  const etag = etagOf(doc.version ?? made ?? (doc.body as () => string)());
  reply.header('etag', etag).header('cache-control', `public, max-age=${doc.maxAge}`);
  // HTTP dates have whole seconds: compare at that precision.
  const modified = doc.lastModified ? Math.floor(doc.lastModified.getTime() / 1000) * 1000 : null;
  if (modified !== null) reply.header('last-modified', new Date(modified).toUTCString());
  const inm = req.headers['if-none-match'];
  const ims = req.headers['if-modified-since'];
  const fresh =
    inm !== undefined
      ? notModified(inm, etag)
      : typeof ims === 'string' && modified !== null && !Number.isNaN(Date.parse(ims)) && modified <= Date.parse(ims);
  if (fresh) return reply.status(304).send();
  return reply.type(doc.type).send(made ?? (doc.body as () => string)());
}

/** The length (in UTF-16 units) from which a read's body with a character past Latin-1 is sent as the bytes its ETag hashed. */
const ENCODE_ONCE_FROM = 16_384;

/**
 * An onSend hook for a tree (Backoffice, Reader): every success answer with a body gets a
 * strong `ETag` of its characters (`etagOf`), unless the route set its own (a feed, an asset); a `GET` or `HEAD`
 * whose `If-None-Match` matches is answered 304 with no body. `cacheControl` names the answer's
 * Cache-Control (a route that sets its own keeps it).
 */
export function validators(cacheControl: (req: FastifyRequest, reply: FastifyReply) => string | undefined): onSendHookHandler {
  // A plain callback: nothing here waits, so no promise per answer.
  return (req, reply, payload, done) => {
    const read = req.method === 'GET' || req.method === 'HEAD';
    if (!reply.hasHeader('cache-control')) {
      const value = cacheControl(req, reply);
      if (value) reply.header('cache-control', value);
    }
    if ((reply.statusCode !== 200 && reply.statusCode !== 201) || !(typeof payload === 'string' || Buffer.isBuffer(payload))) return done(null, payload);
    // A large read's body with a character past Latin-1 is encoded to UTF-8 once, here: hashing
    // such a string encodes it, and so would Fastify's Content-Length and the socket's write: three
    // encodings of one body; its tag is the same either way (of its UTF-8 bytes).
    // Any other stays a string: Node writes a small one in one piece with the headers, and a
    // Latin-1 one is hashed without being encoded. A write's stays a string for the hooks after
    // this one (idempotency keeps it as text).
    const body = read && typeof payload === 'string' && payload.length >= ENCODE_ONCE_FROM && WIDE.test(payload) ? Buffer.from(payload) : payload;
    let etag = reply.getHeader('etag') as string | undefined;
    if (!etag) reply.header('etag', (etag = etagOf(body)));
    if (read && notModified(req.headers['if-none-match'], etag)) {
      reply.status(304);
      return done(null, '');
    }
    return done(null, body);
  };
}

/**
 * If-Match (RFC 9110 13.1.1) against the current representation's strong ETag: `*` matches any
 * current representation, a list matches when one of its tags is this one (weak tags never do).
 */
export function matchesIfMatch(header: string, etag: string): boolean {
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value === etag;
  });
}

export const preconditionFailed = () =>
  new AppError(412, 'precondition_failed', 'the record changed since the version named by If-Match; read it again and retry');

/** The optional `If-Match` header of a Backoffice write (validation and OpenAPI). */
export const ifMatchHeader = z
  .string()
  .max(2000)
  .optional()
  .describe(
    'The ETag of the version this write is meant for (from a read of this path, or of the record or set it belongs to, or from an earlier write): 412 `precondition_failed` when it changed since',
  );

const paramsOf = (url: string) => url.split('/').filter((s) => s.startsWith(':')).map((s) => s.slice(1));

/**
 * The versions of a tree's writes: what the GET a write declares as its version source
 * (`version.read`, an operationId of the tree) answers now, made in the write's transaction with
 * that GET's own handler (its query left to its defaults) and serializer, so that its tag is byte
 * for byte the one the GET sent. The GET's path parameters are the write's, by name.
 */
export function declaredVersions(routes: () => readonly RouteEntry[], tree: RouteEntry['interface']) {
  let reads: Map<string, AnyRouteDef> | undefined;
  const readOf = (operationId: string): AnyRouteDef => {
    reads ??= new Map(routes().filter((e) => e.interface === tree && e.method === 'GET' && e.def).map((e) => [e.operationId, e.def!]));
    const def = reads.get(operationId);
    if (!def) throw new Error(`version source ${operationId} is not a GET of the ${tree} tree`);
    return def;
  };

  const body = async (req: FastifyRequest, reply: FastifyReply, ctx: RequestContext): Promise<{ body: unknown; def: AnyRouteDef } | null> => {
    const source = routeOf(req).config.version;
    if (!source) return null;
    const def = readOf(source.read);
    const all = (req.params ?? {}) as Record<string, string>;
    const params = Object.fromEntries(paramsOf(def.url).map((name) => [name, all[name]]));
    const input = {
      params: def.params ? (def.params as z.ZodType).parse(params) : undefined,
      query: def.querystring ? (def.querystring as z.ZodType).parse({}) : undefined,
      body: undefined,
    };
    const status = reply.statusCode;
    try {
      const answer = await def.handler(ctx, input as never, reply);
      return answer === reply || answer === undefined ? null : { body: answer, def };
    } finally {
      reply.status(status);
    }
  };

  return {
    /** Fails (at start-up) when a write names a version source that is not a GET of the tree. */
    check(): void {
      for (const entry of routes()) if (entry.interface === tree && entry.version) readOf(entry.version.read);
    },
    /** The current answer of the write's version source (null without one), as its handler returns it. */
    body: async (req: FastifyRequest, reply: FastifyReply, ctx: RequestContext): Promise<unknown> => (await body(req, reply, ctx))?.body ?? null,
    /** The strong ETag the version source's GET would send now; null when there is none. */
    async tag(req: FastifyRequest, reply: FastifyReply, ctx: RequestContext): Promise<string | null> {
      const current = await body(req, reply, ctx);
      const schema = current && (current.def.response as Record<number, unknown>)[200];
      return schema ? etagOf(reply.serializeInput(current.body as never, schema as never) as string) : null;
    },
  };
}

export type DeclaredVersions = ReturnType<typeof declaredVersions>;

/**
 * If-Match (RFC 9110 13.1.1) on a write of a tree, checked once in the write's transaction before
 * its work: the record the version source names (`version.lock`, by the write's `id`) is locked
 * first, so that no other write of it lands between the comparison and this one. A write with no
 * version source matches only `*`; a record that is not there is left to the work's own 404.
 */
export function checkIfMatch(versions: DeclaredVersions) {
  return async (req: FastifyRequest, reply: FastifyReply, tx: RequestContext): Promise<void> => {
    const header = req.headers['if-match'];
    if (typeof header !== 'string' || req.method === 'GET' || req.method === 'POST') return;
    const source = routeOf(req).config.version;
    if (!source) {
      if (header.split(',').some((tag) => tag.trim() === '*')) return;
      throw preconditionFailed();
    }
    if (source.lock) {
      const id = (req.params as Record<string, string> | undefined)?.[source.param ?? 'id'];
      if (id !== undefined && !(await source.lock.lock(tx.db, id, tx.mediaId))) return;
    }
    const etag = await versions.tag(req, reply, tx);
    if (etag === null || !matchesIfMatch(header, etag)) throw preconditionFailed();
  };
}
