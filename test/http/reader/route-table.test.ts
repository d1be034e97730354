import { afterAll, beforeAll, describe } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { readerRouteTable } from '../../setup/kits/route-table.js';

// Every Reader route, enumerated at run time: routes added later are covered without edits.
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
});
afterAll(async () => {
  await ctx?.close();
});

describe('every Reader route', () => {
  // More than 15 routes, some scoped beyond media:read, more than 5 about the signed-in reader, some addressed by uuid.
  readerRouteTable(() => ctx, () => true, { routes: 16, scoped: 1, readerRequired: 6, uuid: 1 });
});
