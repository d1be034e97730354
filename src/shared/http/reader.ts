import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { one, pagingMeta } from '../envelopes.js';
import type { Page } from '../paging.js';
import { dataOf, locale, pagingMeta as pagingMetaSchema, pagingQuery } from '../schemas.js';
import type { Executor } from '../../db/client.js';
import { contextOf } from './route.js';

/** What the Reader knows of the media a request names, resolved once per request by readerAuth. */
export interface MediaInfo {
  id: string;
  defaultLocale: string;
  locales: string[];
  /** The media's website, the base of feed and sitemap links (null: none set). */
  siteUrl: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The media named by x-service-media-id (Reader), checked to exist. */
    media: MediaInfo;
  }
}

export const localeQuery = z.object({
  locale: locale.optional().describe("Language to serve; falls back to the media's default, then to any available"),
});

/** Reader list query: paging plus the language to serve. */
export const readerListQuery = pagingQuery.extend(localeQuery.shape);

export const localesMeta = z
  .object({ current: z.string().nullable(), available: z.array(z.string()) })
  .meta({ id: 'LocalesMeta' });

/** The one locale rule: the asked language, else the media's default, else the first available. */
export function chooseLocale(available: readonly string[], asked: string | undefined, fallback: string): string | null {
  if (asked && available.includes(asked)) return asked;
  if (available.includes(fallback)) return fallback;
  return available[0] ?? null;
}

/** The entry of a record to serve by the locale rule, with the record's meta.locales. */
export function pickLocale<T extends { locale: string }>(
  entries: T[],
  asked: string | undefined,
  fallback: string,
): { entry: T | undefined; meta: { current: string | null; available: string[] } } {
  const available = entries.map((e) => e.locale);
  const current = chooseLocale(available, asked, fallback);
  return { entry: entries.find((e) => e.locale === current), meta: { current, available } };
}

/** What a Reader mapper gets beside the row: the language rule's inputs and the assocs collector. */
export interface ReaderView<K extends string = never> {
  locale: string | undefined;
  fallback: string;
  /** Records the ids of related records of a kind; each is loaded once per page. */
  collect: Record<K, (ids: Iterable<string>) => void>;
}

/**
 * Loads the related records of one kind for a page, in one query: `(executor, mediaId, ids, view) => items`,
 * on the executor of the request's context (the replica's for a `replica` read).
 */
export type AssocLoader<T = unknown> = (executor: Executor, mediaId: string, ids: string[], view: ReaderView) => Promise<T[]>;

/** The view of the request (asked locale, media default) for a mapper of one record. */
export const readerView = (req: FastifyRequest, asked: string | undefined): ReaderView =>
  ({ locale: asked, fallback: req.media.defaultLocale, collect: {} }) as ReaderView;

/**
 * A Reader list answer `{data, assocs, meta}`: items mapped in the asked language, the
 * related records each item names loaded once per kind per page, paging links and
 * meta.locales by the locale rule over the media's languages.
 */
export async function readerList<Row, T, K extends string = never>(
  req: FastifyRequest,
  page: Page<Row>,
  asked: string | undefined,
  map: (row: Row, view: ReaderView<K>) => T,
  loaders?: Record<K, AssocLoader>,
) {
  const wanted = new Map<K, Set<string>>();
  const collect = {} as Record<K, (ids: Iterable<string>) => void>;
  for (const kind of Object.keys(loaders ?? {}) as K[]) {
    const set = new Set<string>();
    wanted.set(kind, set);
    collect[kind] = (ids) => {
      for (const id of ids) set.add(id);
    };
  }
  const view: ReaderView<K> = { locale: asked, fallback: req.media.defaultLocale, collect };
  const data = page.items.map((row) => map(row, view));
  // (Assigned, not spread: on Node 20 a spread followed by more properties takes V8's slow path.)
  const meta = Object.assign(pagingMeta(req, page), {
    locales: { current: chooseLocale(req.media.locales, asked, req.media.defaultLocale), available: req.media.locales },
  });
  if (req.preview) Object.assign(meta, PREVIEW_META);
  if (!loaders) return { data, meta };
  const { db } = contextOf(req);
  const assocs = Object.fromEntries(
    await Promise.all(
      [...wanted].map(async ([kind, ids]) => [kind, ids.size > 0 ? await loaders[kind](db, req.media.id, [...ids], view as ReaderView) : []] as const),
    ),
  ) as Record<K, unknown[]>;
  return { data, assocs, meta };
}

/** What a Reader answer to a request with a preview token says of itself. */
const PREVIEW_META = { preview: true } as const;
const previewMeta = z.literal(true).optional().describe('true when a preview token (`x-preview-token`) decided what this answer shows');

/** A Reader answer of one record: `{data}`, with `meta.preview` when a preview token decided it. */
export const readerOne = <T>(req: FastifyRequest, data: T) => (req.preview ? { data, meta: PREVIEW_META } : one(data));

/** The response schema of `readerOne`. */
export const readerOneOf = <S extends z.ZodType>(item: S) => dataOf(item).extend({ meta: z.object({ preview: previewMeta }).optional() });

/** The response schema of a Reader list: items, optional assocs by kind, paging and locales meta. */
export function readerListOf<S extends z.ZodType, A extends Record<string, z.ZodType> = Record<never, never>>(item: S, assocs?: A) {
  return z.object({
    data: z.array(item),
    ...(assocs && { assocs: z.object(Object.fromEntries(Object.entries(assocs).map(([k, v]) => [k, z.array(v)])) as { [K in keyof A]: z.ZodArray<A[K]> }) }),
    meta: pagingMetaSchema.extend({ locales: localesMeta, preview: previewMeta }),
  });
}
