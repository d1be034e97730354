import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { chooseLocale, pickLocale, readerList } from '../../src/shared/http/reader.js';

// readerList needs of a request only its URL, link origin, resolved media, and what its context is
// made of: the route (a `replica` read) and the app's two databases, which the loaders are given.
const primary = { name: 'primary' };
const replica = { name: 'replica' };
const request = (url: string) =>
  ({
    url,
    linkOrigin: 'https://news.example',
    media: { id: 'm1', defaultLocale: 'fr', locales: ['fr', 'en', 'de'], localeFallbacks: { it: ['de'] } },
    routeOptions: { config: { replica: true } },
    server: { db: primary, readDb: replica },
  }) as unknown as FastifyRequest;

describe('the one locale rule', () => {
  const plain = { default: 'fr', chains: {} };
  const swiss = { default: 'en', chains: { 'fr-CH': ['fr', 'de'], 'de-CH': ['de'] } };
  it.each([
    // available, asked, rule, served
    [['en', 'fr'], 'en', plain, 'en'],
    [['en', 'fr'], 'it', plain, 'fr'],
    [['de', 'en'], 'it', plain, 'de'],
    [[], 'it', plain, null],
    [['fr-CH', 'fr', 'en'], 'fr-CH', swiss, 'fr-CH'],
    [['de', 'fr', 'en'], 'fr-CH', swiss, 'fr'],
    [['de', 'en'], 'fr-CH', swiss, 'de'],
    [['en', 'it'], 'fr-CH', swiss, 'en'],
    [['it'], 'fr-CH', swiss, 'it'],
    [['fr', 'en'], 'de-CH', swiss, 'en'],
    [['fr', 'en'], undefined, swiss, 'en'],
  ] as const)('available %j, asked %s: serves %s', (available, asked, rule, served) => {
    expect(chooseLocale(available, asked, rule)).toBe(served);
  });

  it("picks a record's entry by that rule and tells the record's languages and the one asked", () => {
    const entries = [{ locale: 'de', title: 'Hallo' }, { locale: 'en', title: 'Hello' }];
    expect(pickLocale(entries, 'en', plain)).toEqual({ entry: entries[1], meta: { current: 'en', available: ['de', 'en'], requested: 'en' } });
    expect(pickLocale(entries, undefined, plain)).toEqual({ entry: entries[0], meta: { current: 'de', available: ['de', 'en'], requested: null } });
    expect(pickLocale(entries, 'fr-CH', swiss)).toEqual({ entry: entries[0], meta: { current: 'de', available: ['de', 'en'], requested: 'fr-CH' } });
  });
});

describe('readerList', () => {
  const rows = [
    { id: 'a', categoryIds: ['c1', 'c2'], authorIds: ['p1'] },
    { id: 'b', categoryIds: ['c2', 'c3'], authorIds: [] },
    { id: 'c', categoryIds: ['c1'], authorIds: ['p1', 'p2'] },
  ];
  const page = { items: rows, next: 'n.x', previous: null };

  it("loads each kind of related record once per page, with each id once, on the request's database, beside data and meta", async () => {
    const calls: Array<[string, string[]]> = [];
    const loader = (kind: string) => async (executor: unknown, mediaId: string, ids: string[]) => {
      calls.push([kind, ids]);
      expect(executor).toBe(replica);
      expect(mediaId).toBe('m1');
      return ids.map((id) => ({ id }));
    };
    const body = await readerList(
      request('/api/media/v1/contents?limit=3&locale=en&after=old.cursor'),
      page,
      'en',
      (row, view) => {
        view.collect.categories(row.categoryIds);
        view.collect.profiles(row.authorIds);
        return { id: row.id, locale: view.locale, fallback: view.fallback.default };
      },
      { categories: loader('categories'), profiles: loader('profiles'), templates: loader('templates') },
    );
    expect(calls.sort()).toEqual([
      ['categories', ['c1', 'c2', 'c3']],
      ['profiles', ['p1', 'p2']],
    ]);
    expect(body).toEqual({
      data: [
        { id: 'a', locale: 'en', fallback: 'fr' },
        { id: 'b', locale: 'en', fallback: 'fr' },
        { id: 'c', locale: 'en', fallback: 'fr' },
      ],
      // A kind nothing on the page points to is an empty list, with no query.
      assocs: { categories: [{ id: 'c1' }, { id: 'c2' }, { id: 'c3' }], profiles: [{ id: 'p1' }, { id: 'p2' }], templates: [] },
      meta: {
        base: 'https://news.example/api/media/v1/contents?limit=3&locale=en',
        next: 'https://news.example/api/media/v1/contents?limit=3&locale=en&after=n.x',
        previous: null,
        locales: { current: 'en', available: ['fr', 'en', 'de'], requested: 'en' },
      },
    });
  });

  it("answers meta.locales by the same rule over the media's languages (its chain for the asked one first), and no assocs when none are asked", async () => {
    const body = await readerList(request('/api/media/v1/categories'), { items: [], next: null, previous: null }, 'it', (row) => row);
    expect(body).toEqual({
      data: [],
      meta: { base: 'https://news.example/api/media/v1/categories', next: null, previous: null, locales: { current: 'de', available: ['fr', 'en', 'de'], requested: 'it' } },
    });
  });
});
