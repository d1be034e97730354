import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/db/columns.js';
import { aggregate, part } from '../../src/shared/aggregate.js';
import { AppError } from '../../src/shared/errors.js';
import { Paginator } from '../../src/shared/paging.js';
import { type TestDatabase, createTestDatabase } from '../setup/app.js';

// A part's computed fields (a referenced record read in the same statement) and two
// aggregates over one table under names of their own: the engine apart from any module.
const tstz = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });
const posts = pgTable('tc_posts', {
  id: uuid('id').primaryKey().$defaultFn(newId),
  ownerId: uuid('owner_id').notNull(),
  insertedAt: tstz('inserted_at').notNull().defaultNow(),
  deletedAt: tstz('deleted_at'),
});
const labels = pgTable('tc_labels', { id: uuid('id').primaryKey(), name: text('name').notNull() });
const postLabels = pgTable('tc_post_labels', {
  id: uuid('id').primaryKey().$defaultFn(newId),
  postId: uuid('post_id').notNull(),
  labelId: uuid('label_id').notNull(),
  note: text('note'),
});

const DDL = `
  create table tc_posts (id uuid primary key, owner_id uuid not null, inserted_at timestamptz(3) not null default now(), deleted_at timestamptz(3));
  create index tc_posts_page_idx on tc_posts (owner_id, inserted_at desc nulls last, id desc nulls last) where deleted_at is null;
  create table tc_labels (id uuid primary key, name text not null);
  create table tc_post_labels (id uuid primary key, post_id uuid not null references tc_posts(id), label_id uuid not null, note text)
`;

const conflict = () => new AppError(409, 'post_conflict', 'conflict');
const labelName = (col: (c: typeof postLabels.labelId) => ReturnType<typeof sql>) =>
  sql<string | null>`(select ${labels.name} from ${labels} where ${labels.id} = ${col(postLabels.labelId)})`;

const full = aggregate(posts, {
  owner: posts.ownerId,
  conflict,
  parts: {
    labels: part(postLabels, { parent: postLabels.postId, match: ['labelId'], columns: ['labelId', 'note'], computed: { name: labelName } }),
  },
});
// The same table, read without its parts under another name: its prepared statements differ.
const lean = aggregate(posts, { name: 'tc_posts_lean', owner: posts.ownerId, conflict, parts: {} });

let test: TestDatabase;
const owner = randomUUID();

beforeAll(async () => {
  test = await createTestDatabase();
  for (const statement of DDL.split(';').map((s) => s.trim()).filter(Boolean)) await test.database.db.execute(sql.raw(statement));
});
afterAll(async () => {
  await test?.database.close();
  await test?.drop();
});

describe('computed part fields and named aggregates', () => {
  it("reads a part's computed fields in the record's statement, typed beside its columns", async () => {
    const db = test.database.db;
    const [l1, l2] = [randomUUID(), randomUUID()];
    await db.insert(labels).values([
      { id: l1, name: 'Politics' },
      { id: l2, name: 'Sport' },
    ]);
    const [post] = await db.insert(posts).values({ ownerId: owner }).returning();
    await db.transaction((tx) => full.replace(tx, 'labels', post!.id, [{ labelId: l2, note: 'b' }, { labelId: l1 }, { labelId: randomUUID() }]));
    const row = await full.find(db, post!.id, owner);
    const names: Array<string | null> = row!.labels.map((l) => l.name);
    expect(row!.labels.map((l) => [l.labelId, l.note])).toEqual(expect.arrayContaining([[l2, 'b'], [l1, null]]));
    expect(names.sort()).toEqual(['Politics', 'Sport', null].sort());
    expect(Object.keys(row!.labels[0]!).sort()).toEqual(['labelId', 'name', 'note']);
  });

  it('pages two aggregates over one table side by side, each with its own statements and cursors', async () => {
    const db = test.database.db;
    await db.insert(posts).values([{ ownerId: owner }, { ownerId: owner }]);
    const pager = new Paginator(Buffer.alloc(32, 1));
    const query = { limit: 1 };
    const [a, b] = [await full.page(pager, db, owner, query), await lean.page(pager, db, owner, query)];
    expect(a.items[0]!.id).toBe(b.items[0]!.id);
    expect(a.items[0]).toHaveProperty('labels');
    expect(b.items[0]).not.toHaveProperty('labels');
    // A cursor names its listing: the lean one's does not page the full one.
    await expect(full.page(pager, db, owner, { limit: 1, after: b.next! })).rejects.toMatchObject({ code: 'invalid_cursor' });
    expect((await lean.page(pager, db, owner, { limit: 1, after: b.next! })).items).toHaveLength(1);
  });

  it("finds the owner's live records among ids in one prepared statement, whatever their number", async () => {
    const db = test.database.db;
    const rows = await db.insert(posts).values([{ ownerId: owner }, { ownerId: owner }, { ownerId: randomUUID() }]).returning();
    await db.update(posts).set({ deletedAt: new Date() }).where(sql`${posts.id} = ${rows[1]!.id}`);
    const found = await full.findMany(db, [...rows.map((r) => r.id), randomUUID()], owner);
    expect(found.map((r) => r.id)).toEqual([rows[0]!.id]);
    expect(found[0]!.labels).toEqual([]);
    expect(await full.findMany(db, [], owner)).toEqual([]);
  });
});
