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
  /** Per asked language, the languages tried next before the default (`locale_fallbacks`). */
  localeFallbacks: Record<string, string[]>;
  /** The meter of subscriber contents (shared/access.ts): 0 is off. */
  meterLimit: number;
  meterPeriodDays: number;
}

/** Where a read goes when a record lacks the asked language: the media's chain for it, then its default. */
export interface LocaleFallback {
  chains: Readonly<Record<string, readonly string[]>>;
  default: string;
}

/** The media's fallback rule, made once per media row (the row is cached for seconds; the rule with it). */
const fallbacks = new WeakMap<MediaInfo, LocaleFallback>();
export function fallbackOf(media: MediaInfo): LocaleFallback {
  let rule = fallbacks.get(media);
  if (!rule) {
    rule = { chains: media.localeFallbacks ?? {}, default: media.defaultLocale };
    fallbacks.set(media, rule);
  }
  return rule;
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
  .object({
    current: z.string().nullable().describe('The language served'),
    available: z.array(z.string()),
    requested: z.string().nullable().describe('The language asked for (`locale`), null when none was'),
  })
  .meta({ id: 'LocalesMeta' });

export type LocalesMeta = z.output<typeof localesMeta>;

/**
 * The one locale rule: the asked language, else the first of the media's chain for it that is
 * available, else the media's default, else the first available.
 */
export function chooseLocale(available: readonly string[], asked: string | undefined, fallback: LocaleFallback): string | null {
  if (asked) {
    if (available.includes(asked)) return asked;
    for (const next of fallback.chains[asked] ?? []) if (available.includes(next)) return next;
  }
  if (available.includes(fallback.default)) return fallback.default;
  return available[0] ?? null;
}

/** meta.locales of languages `available`, by the locale rule. */
export const localesOf = (available: string[], asked: string | undefined, fallback: LocaleFallback): LocalesMeta => ({
  current: chooseLocale(available, asked, fallback),
  available,
  requested: asked ?? null,
});

/** The entry of a record to serve by the locale rule, with the record's meta.locales. */
export function pickLocale<T extends { locale: string }>(
  entries: T[],
  asked: string | undefined,
  fallback: LocaleFallback,
): { entry: T | undefined; meta: LocalesMeta } {
  const meta = localesOf(
    entries.map((e) => e.locale),
    asked,
    fallback,
  );
  return { entry: entries.find((e) => e.locale === meta.current), meta };
}

/** What a Reader mapper gets beside the row: the language rule's inputs and the assocs collector. */
export interface ReaderView<K extends string = never> {
  locale: string | undefined;
  fallback: LocaleFallback;
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
  ({ locale: asked, fallback: fallbackOf(req.media), collect: {} }) as ReaderView;

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
  const view: ReaderView<K> = { locale: asked, fallback: fallbackOf(req.media), collect };
  const data = page.items.map((row) => map(row, view));
  // (Assigned, not spread: on Node 20 a spread followed by more properties takes V8's slow path.)
  const meta = Object.assign(pagingMeta(req, page), {
    locales: localesOf(req.media.locales, asked, view.fallback),
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
