import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readerRecordOf, wireOf, wirePlan } from './wire.js';

interface Item {
  id: string;
  name: string;
  url: string;
  items: Item[];
}

describe('wireOf with a schema plan', () => {
  const item: z.ZodType<Item> = z.object({
    id: z.string(),
    name: z.string(),
    url: z.string(),
    get items() {
      return z.array(item);
    },
  });
  const record = z.object({
    id: z.string(),
    title_html: z.string().nullable(),
    links: z.array(z.object({ label: z.string(), url: z.string() })).nullable(),
    menu: z.array(item),
    inserted_at: z.string(),
    updated_at: z.string(),
  });

  it('writes the fields in the schema order at every depth, stored JSON (jsonb: keys shortest first) and trees included, and only those', () => {
    const row = {
      id: 'r1',
      mediaId: 'm1',
      insertedAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-02T00:00:00.000Z',
      secretHash: 'never on the wire',
      titleHtml: null,
      links: [{ url: 'https://a.example', label: 'A' }],
      menu: [{ id: 'i1', url: '/a', name: 'A', items: [{ id: 'i2', url: '/b', name: 'B', items: [] }] }],
    };
    expect(JSON.stringify(wireOf(row, wirePlan(record)))).toBe(
      '{"id":"r1","title_html":null,"links":[{"label":"A","url":"https://a.example"}],' +
        '"menu":[{"id":"i1","name":"A","url":"/a","items":[{"id":"i2","name":"B","url":"/b","items":[]}]}],' +
        '"inserted_at":"2026-01-01T00:00:00.000Z","updated_at":"2026-01-02T00:00:00.000Z"}',
    );
    // Without a plan: the row's own order, snake_case, the tenancy column left out.
    expect(Object.keys(wireOf(row) as object)).toEqual(['id', 'inserted_at', 'updated_at', 'secret_hash', 'title_html', 'links', 'menu']);
  });

  it('makes one plan per schema, and none for a value that is not an object or an array', () => {
    expect(wirePlan(record)).toBe(wirePlan(record));
    expect(wirePlan(z.string())).toBeUndefined();
    expect(wirePlan(record.nullable())).toBe(wirePlan(record));
  });

  it('puts a Reader record together in its schema order: fields, the asked entry as `localized`, meta, timestamps', () => {
    const reader = z.object({
      id: z.string(),
      key: z.string(),
      localized: z.object({ id: z.string(), locale: z.string(), title: z.string() }).nullable(),
      meta: z.object({ locales: z.object({ current: z.string().nullable(), available: z.array(z.string()) }) }),
      inserted_at: z.string(),
      updated_at: z.string(),
    });
    const row = {
      id: 'r1',
      insertedAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-02T00:00:00.000Z',
      deletedAt: null,
      key: 'main',
      locales: [
        { id: 'l1', title: 'Menu', locale: 'en', deletedAt: null },
        { id: 'l2', title: 'Menu FR', locale: 'fr', deletedAt: null },
      ],
    };
    expect(JSON.stringify(readerRecordOf(row, { locale: 'fr', fallback: { default: 'en', chains: {} } }, wirePlan(reader)!))).toBe(
      '{"id":"r1","key":"main","localized":{"id":"l2","locale":"fr","title":"Menu FR"},' +
        '"meta":{"locales":{"current":"fr","available":["en","fr"],"requested":"fr"}},"inserted_at":"2026-01-01T00:00:00.000Z","updated_at":"2026-01-02T00:00:00.000Z"}',
    );
  });
});
