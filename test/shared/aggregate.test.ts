import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/db/columns.js';
import type { Database } from '../../src/db/client.js';
import { aggregate, part } from '../../src/shared/aggregate.js';
import { AppError } from '../../src/shared/errors.js';
import { Paginator, newestFirst } from '../../src/shared/paging.js';
import { type TestDatabase, createTestDatabase, statementsDuring } from '../setup/app.js';

// A three-level aggregate of the test's own (shelf → locale → book), so that the engine is
// tested apart from any module: shared/ knows none.
const tstz = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });
const shelves = pgTable('t_shelves', {
  id: uuid('id').primaryKey().$defaultFn(newId),
  mediaId: uuid('media_id').notNull(),
  name: text('name').notNull(),
  insertedAt: tstz('inserted_at').notNull().defaultNow(),
  updatedAt: tstz('updated_at').notNull().defaultNow(),
  deletedAt: tstz('deleted_at'),
});
const shelfLocales = pgTable('t_shelf_locales', {
  id: uuid('id').primaryKey().$defaultFn(newId),
  shelfId: uuid('shelf_id').notNull(),
  locale: text('locale').notNull(),
  title: text('title').notNull(),
  insertedAt: tstz('inserted_at').notNull().defaultNow(),
  updatedAt: tstz('updated_at').notNull().defaultNow(),
  deletedAt: tstz('deleted_at'),
});
const books = pgTable('t_books', {
  id: uuid('id').primaryKey().$defaultFn(newId),
  localeId: uuid('locale_id').notNull(),
  position: integer('position').notNull(),
  code: text('code').notNull(),
  insertedAt: tstz('inserted_at').notNull().defaultNow(),
  updatedAt: tstz('updated_at').notNull().defaultNow(),
  deletedAt: tstz('deleted_at'),
});

const DDL = `
  create table t_shelves (id uuid primary key, media_id uuid not null, name text not null,
    inserted_at timestamptz(3) not null default now(), updated_at timestamptz(3) not null default now(), deleted_at timestamptz(3));
  create index t_shelves_page_idx on t_shelves (media_id, inserted_at desc nulls last, id desc nulls last) where deleted_at is null;
  create table t_shelf_locales (id uuid primary key, shelf_id uuid not null references t_shelves(id), locale text not null, title text not null,
    inserted_at timestamptz(3) not null default now(), updated_at timestamptz(3) not null default now(), deleted_at timestamptz(3));
  create unique index t_shelf_locales_live_uq on t_shelf_locales (shelf_id, locale) where deleted_at is null;
  create table t_books (id uuid primary key, locale_id uuid not null references t_shelf_locales(id), position integer not null, code text not null,
    inserted_at timestamptz(3) not null default now(), updated_at timestamptz(3) not null default now(), deleted_at timestamptz(3));
  create unique index t_books_position_uq on t_books (locale_id, position) where deleted_at is null;
  create unique index t_books_code_uq on t_books (code) where deleted_at is null;
`;

const conflict = () => new AppError(409, 'shelf_conflict', 'a live book already has this code');
const shelf = aggregate(shelves, {
  owner: shelves.mediaId,
  conflict,
  parts: {
    locales: part(shelfLocales, {
      parent: shelfLocales.shelfId,
      match: ['locale'],
      columns: ['id', 'locale', 'title', 'deletedAt'],
      parts: {
        books: part(books, { parent: books.localeId, match: 'id', position: 'position', columns: ['id', 'position', 'code'] }),
      },
    }),
  },
});

let test: TestDatabase;
let database: Database;
const media = randomUUID();

/** How many statements the driver runs during `work`. */
const countStatements = async (work: () => Promise<unknown>): Promise<number> => (await statementsDuring(database, work)).length;

async function createShelf(codes: Record<string, string[]>) {
  return database.db.transaction(async (tx) => {
    const [row] = await tx.insert(shelves).values({ mediaId: media, name: 'Shelf' }).returning();
    const locales = Object.keys(codes);
    await shelf.replace(tx, 'locales', row!.id, locales.map((locale) => ({ locale, title: `Title ${locale}` })));
    const read = await shelf.find(tx, row!.id, media);
    for (const entry of read!.locales) {
      await shelf.replace(tx, 'locales.books', entry.id, codes[entry.locale]!.map((code) => ({ code })));
    }
    return row!.id;
  });
}

const load = async (id: string) => (await shelf.find(database.db, id, media))!;
const codesOf = (row: Awaited<ReturnType<typeof load>>) =>
  Object.fromEntries(row.locales.map((l) => [l.locale, l.books.map((b) => b.code)]));
const deletedAt = async (table: string, ids: string[]) => {
  const res = (await database.db.execute(sql`select id, deleted_at from ${sql.identifier(table)} where id in ${ids}`)) as unknown as {
    rows: Array<{ id: string; deleted_at: unknown }>;
  };
  return new Map(res.rows.map((r) => [r.id, r.deleted_at === null ? null : String(r.deleted_at)]));
};

beforeAll(async () => {
  test = await createTestDatabase();
  database = test.database;
  for (const statement of DDL.split(';').map((s) => s.trim()).filter(Boolean)) await database.db.execute(sql.raw(statement));
});
afterAll(async () => {
  await test?.database.close();
  await test?.drop();
});

const uniqueCode = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

describe('the aggregate engine on a three-level aggregate', () => {
  it('reads a record with its live parts nested two levels deep, in order, in one statement', async () => {
    const [a, b, c] = [uniqueCode('a'), uniqueCode('b'), uniqueCode('c')];
    const id = await createShelf({ en: [a, b], fr: [c] });
    let row: Awaited<ReturnType<typeof load>> | undefined;
    expect(await countStatements(async () => (row = await load(id)))).toBe(1);
    expect(row!.id).toBe(id);
    expect(row!.name).toBe('Shelf');
    expect(row!.insertedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(row!.deletedAt).toBeNull();
    expect(row!.locales.map((l) => [l.locale, l.title, l.deletedAt])).toEqual([
      ['en', 'Title en', null],
      ['fr', 'Title fr', null],
    ]);
    expect(row!.locales[0]!.books.map((book) => [book.position, book.code])).toEqual([
      [0, a],
      [1, b],
    ]);
    expect(Object.keys(row!.locales[0]!.books[0]!).sort()).toEqual(['code', 'id', 'position']);
  });

  it('reads a page of records with their parts in one statement, whatever the page size', async () => {
    for (let i = 0; i < 3; i++) await createShelf({ en: [uniqueCode('p'), uniqueCode('q')], fr: [uniqueCode('r')] });
    const pager = new Paginator(Buffer.alloc(32, 7));
    for (const limit of [1, 5, 50]) {
      let items = 0;
      const statements = await countStatements(async () => {
        const page = await pager.page(
          {
            select: database.db.select(shelf.columns).from(shelves),
            keyset: newestFirst(shelves),
            scope: `shelves:${media}`,
            where: sql`${shelves.mediaId} = ${media} and ${shelf.filter()}`,
          },
          { limit },
        );
        items = page.items.length;
        expect(page.items.every((s) => s.locales.length === 2 && s.locales[0]!.books.length === 2)).toBe(true);
      });
      expect(items).toBe(Math.min(limit, 4));
      expect(statements).toBe(1);
    }
  });

  it('replaces a part set: matched entries updated, new ones inserted, missing ones soft-deleted with their own parts', async () => {
    const [a, b, c] = [uniqueCode('a'), uniqueCode('b'), uniqueCode('c')];
    const id = await createShelf({ en: [a], fr: [b, c] });
    const before = await load(id);
    const fr = before.locales.find((l) => l.locale === 'fr')!;
    await database.db.transaction((tx) =>
      shelf.replace(tx, 'locales', id, [
        { locale: 'en', title: 'New title' },
        { locale: 'de', title: 'Titel' },
      ]),
    );
    const after = await load(id);
    expect(after.locales.map((l) => [l.locale, l.title])).toEqual([
      ['en', 'New title'],
      ['de', 'Titel'],
    ]);
    // The matched entry kept its id and its books; the dropped one took its books along.
    expect(after.locales[0]!.id).toBe(before.locales.find((l) => l.locale === 'en')!.id);
    expect(after.locales[0]!.books.map((x) => x.code)).toEqual([a]);
    const stamps = await deletedAt('t_shelf_locales', [fr.id]);
    const bookStamps = await deletedAt('t_books', fr.books.map((x) => x.id));
    expect(stamps.get(fr.id)).not.toBeNull();
    expect([...bookStamps.values()]).toEqual([stamps.get(fr.id), stamps.get(fr.id)]);
  });

  it('reorders, keeps, creates and removes ordered children by id, renumbering positions from 0', async () => {
    const [a, b, c, d] = [uniqueCode('a'), uniqueCode('b'), uniqueCode('c'), uniqueCode('d')];
    const id = await createShelf({ en: [a, b, c] });
    const en = (await load(id)).locales[0]!;
    const [bookA, , bookC] = en.books;
    await database.db.transaction((tx) =>
      shelf.replace(tx, 'locales.books', en.id, [{ id: bookC!.id, code: c }, { code: d }, { id: bookA!.id, code: a }]),
    );
    const books = (await load(id)).locales[0]!.books;
    expect(books.map((x) => [x.position, x.code])).toEqual([
      [0, c],
      [1, d],
      [2, a],
    ]);
    expect(books[0]!.id).toBe(bookC!.id);
    expect(books[2]!.id).toBe(bookA!.id);
  });

  it('refuses an entry naming an id that is not a live part of this parent, and changes nothing', async () => {
    const code = uniqueCode('a');
    const id = await createShelf({ en: [code] });
    const en = (await load(id)).locales[0]!;
    const attempt = database.db.transaction((tx) => shelf.replace(tx, 'locales.books', en.id, [{ id: randomUUID(), code: 'x' }]));
    await expect(attempt).rejects.toMatchObject({ statusCode: 400, code: 'validation_failed' });
    expect((await load(id)).locales[0]!.books.map((x) => x.code)).toEqual([code]);
  });

  it('stamps the whole tree with one deleted_at, and the record is no longer read', async () => {
    const id = await createShelf({ en: [uniqueCode('a'), uniqueCode('b')], fr: [uniqueCode('c')] });
    const row = await load(id);
    expect(await database.db.transaction((tx) => shelf.softDelete(tx, id, media))).toBe(true);
    expect(await shelf.find(database.db, id, media)).toBeUndefined();
    const root = await deletedAt('t_shelves', [id]);
    const locales = await deletedAt('t_shelf_locales', row.locales.map((l) => l.id));
    const books = await deletedAt('t_books', row.locales.flatMap((l) => l.books.map((x) => x.id)));
    const stamp = root.get(id);
    expect(stamp).not.toBeNull();
    expect(new Set([...locales.values(), ...books.values()])).toEqual(new Set([stamp]));
    // A second delete finds nothing live.
    expect(await database.db.transaction((tx) => shelf.softDelete(tx, id, media))).toBe(false);
  });

  it("does not delete or restore another owner's record", async () => {
    const id = await createShelf({ en: [uniqueCode('a')] });
    expect(await database.db.transaction((tx) => shelf.softDelete(tx, id, randomUUID()))).toBe(false);
    expect(await shelf.find(database.db, id, randomUUID())).toBeUndefined();
    expect(await database.db.transaction((tx) => shelf.restore(tx, id, randomUUID()))).toBe('not_found');
    expect((await load(id)).id).toBe(id);
  });

  it('restores exactly the tree its delete took away: a grandchild deleted on its own before stays deleted', async () => {
    const [a, b, c] = [uniqueCode('a'), uniqueCode('b'), uniqueCode('c')];
    const id = await createShelf({ en: [a, b], fr: [c] });
    const en = (await load(id)).locales.find((l) => l.locale === 'en')!;
    // Book b leaves on its own first (the set replaced without it).
    await database.db.transaction((tx) => shelf.replace(tx, 'locales.books', en.id, [{ id: en.books[0]!.id, code: a }]));
    const [own] = (await deletedAt('t_books', [en.books[1]!.id])).values();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await database.db.transaction((tx) => shelf.softDelete(tx, id, media));

    expect(await database.db.transaction((tx) => shelf.restore(tx, id, media))).toBe('restored');
    const restored = await load(id);
    expect(codesOf(restored)).toEqual({ en: [a], fr: [c] });
    expect(restored.deletedAt).toBeNull();
    expect((await deletedAt('t_books', [en.books[1]!.id])).get(en.books[1]!.id)).toBe(own);
    // Restoring a live record is a no-op.
    expect(await database.db.transaction((tx) => shelf.restore(tx, id, media))).toBe('not_deleted');
    expect(codesOf(await load(id))).toEqual({ en: [a], fr: [c] });
  });

  it('answers the aggregate 409 when a restore meets a unique key taken meanwhile, and restores nothing', async () => {
    const code = uniqueCode('dup');
    const id = await createShelf({ en: [code] });
    await database.db.transaction((tx) => shelf.softDelete(tx, id, media));
    await createShelf({ en: [code] });
    const attempt = database.db.transaction((tx) => shelf.restore(tx, id, media));
    await expect(attempt).rejects.toMatchObject({ statusCode: 409, code: 'shelf_conflict' });
    expect(await shelf.find(database.db, id, media)).toBeUndefined();
    expect((await deletedAt('t_shelves', [id])).get(id)).not.toBeNull();
  });

  it('answers the aggregate 409 when a replace meets a unique key', async () => {
    const code = uniqueCode('dup');
    await createShelf({ en: [code] });
    const id = await createShelf({ en: [uniqueCode('x')] });
    const en = (await load(id)).locales[0]!;
    const attempt = database.db.transaction((tx) => shelf.replace(tx, 'locales.books', en.id, [{ code }]));
    await expect(attempt).rejects.toMatchObject({ statusCode: 409, code: 'shelf_conflict' });
  });
});
