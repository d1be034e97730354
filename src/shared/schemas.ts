import { z } from 'zod';

export const uuid = z.uuid();

/**
 * Any JSON value, as one named component (`JsonValue`): a recursive schema left unnamed became a
 * generated `SharedSchema0` that openapi-typescript turns into a type referring to itself through
 * an indexed access, which `tsc --strict` refuses (TS2502); the client's generator maps this name
 * to a recursive type alias instead (scripts/generate-client.ts).
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export const jsonValue: z.ZodType<JsonValue> = z
  .lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]))
  .meta({ id: 'JsonValue', description: 'Any JSON value' });

/**
 * A website's address (a media's, an RSS feed's): the channel link of its feeds, and the base of the
 * links that feeds and sitemaps write for records without a canonical URL of their own.
 */
export const siteUrl = z
  .url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' })
  .max(2000)
  // Record paths are appended to it: a query or a fragment would swallow them.
  .refine((url) => !/[?#]/.test(url), 'must carry no query or fragment')
  .describe("The website's address (absolute http(s), no query or fragment): the RSS channel link, and the base of feed and sitemap links of records without a canonical_url (<site_url>/<kind>/<id>)");

/** A record key (a template's, a workspace's, a topic's…): what programs and templates refer to. */
export const recordKey = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'must be lower-case letters, digits, - or _ (at most 63)');

/** A timestamp as the service writes it: ISO 8601, UTC, milliseconds. */
export const isoTimestamp = z.iso.datetime().meta({ example: '2026-11-21T22:44:08.123Z' });

/**
 * A timestamp as a client may send it: any ISO 8601 offset, normalised to a UTC Date. The one
 * input type of every timestamp field (`format: date-time` in OpenAPI, both ways). A string
 * that is not one stops validation there (`abort`), so the refinements after it and the
 * object-level ones around it only ever see a Date.
 */
export const timestampInput = z
  .codec(z.iso.datetime({ offset: true, abort: true, message: 'must be an ISO 8601 date-time such as 2026-11-21T22:44:08.123Z' }), z.date(), {
    decode: (value) => new Date(value),
    encode: (date) => date.toISOString(),
  })
  // In UTC the year must keep four digits: past 9999 it cannot be written back as ISO 8601,
  // and years below 100 come back from the database shifted by JavaScript's date parser.
  .refine((date) => date.getUTCFullYear() >= 1000 && date.getUTCFullYear() <= 9999, {
    message: 'must fall between the years 1000 and 9999 in UTC',
    abort: true,
  })
  .meta({ example: '2026-11-21T23:44:08.123+01:00' });

/** A timestamp input that must lie in the future, checked when the request is read. */
export const futureTimestampInput = timestampInput
  .refine((date) => date.getTime() > Date.now(), {
    message: 'must be in the future',
    abort: true,
  })
  // An example the document can keep for years.
  .meta({ example: '2036-01-01T09:00:00.000+01:00' });

export const locale = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Z][a-zA-Z]{1,3}|-\d{3})?$/, 'must be a language code such as en or fr-CH')
  .describe('Language code (BCP 47 subset: en, fr-CH, ...)')
  .meta({ examples: ['en'] });

/** An integer sent in a query string: digits only, then bounds; "1e2", "-1" and "" are refused. */
export const queryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `must be an integer between ${min} and ${max}`)
    .transform(Number)
    .pipe(z.int().min(min).max(max))
    // Documented as the integer it stands for; the digits-only pattern is the parser's business.
    .meta({ type: 'integer', minimum: min, maximum: max, pattern: undefined });

const cursor = z.string().min(1).max(512).describe('Opaque cursor taken from meta.next or meta.previous');

export const pagingQuery = z.object({
  limit: queryInt(1, 100).default(20).describe('Page size, 1 to 100 (default 20)'),
  after: cursor.optional(),
  before: cursor.optional(),
});
export type PagingQuery = z.output<typeof pagingQuery>;

export const pagingMeta = z
  .object({
    base: z.string().describe('This listing without a cursor'),
    next: z.string().nullable().describe('Link to the next page; null on the last'),
    previous: z.string().nullable().describe('Link to the previous page; null on the first'),
  })
  .meta({ id: 'PagingMeta' });

/**
 * `make(key)`, made once per key (a schema, an area's kind): the same schema object for every
 * route and every app built in this process (tests build hundreds), so that the serializer
 * compiled for it and its OpenAPI rendering are found by identity instead of made again, and a
 * named schema is registered once.
 */
export function oncePer<K extends object, E>(make: (key: K) => E): (key: K) => E {
  const made = new WeakMap<K, E>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) made.set(key, (value = make(key)));
    return value;
  };
}

const dataEnvelope = oncePer((schema: z.ZodType) => z.object({ data: schema }));
const listEnvelope = oncePer((schema: z.ZodType) => z.object({ data: z.array(schema), meta: pagingMeta }));
export const dataOf = <S extends z.ZodType>(schema: S) => dataEnvelope(schema) as z.ZodObject<{ data: S }>;
export const listOf = <S extends z.ZodType>(schema: S) =>
  listEnvelope(schema) as z.ZodObject<{ data: z.ZodArray<S>; meta: typeof pagingMeta }>;

export const errorBody = z
  .object({
    error: z.string().describe('A sentence for people'),
    code: z.string().describe('A stable snake_case identifier for programs'),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Error' });

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 502;

/** Response schemas for the error statuses a route documents, all the same envelope. */
export const errorResponses = (...statuses: ErrorStatus[]) =>
  Object.fromEntries(statuses.map((s) => [s, errorBody])) as Record<ErrorStatus, typeof errorBody>;

export const idParams = z.object({ id: uuid });

export const noContent = z.void().describe('No content');
