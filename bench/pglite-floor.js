// The floor under a CLI call on the embedded database (bench/cli.ts): PGlite opened on the data
// directory given, with the extensions the service loads, one query, closed. Plain JavaScript,
// as `node dist/cli.js` is. PGLITE_SHARED_BUFFERS starts it with that buffer cache, as the CLI does.
import process from 'node:process';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const sharedBuffers = process.env.PGLITE_SHARED_BUFFERS;
const db = new PGlite({
  dataDir: process.argv[2],
  extensions: { pg_trgm, btree_gin },
  ...(sharedBuffers && { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`] }),
});
await db.query('select 1');
await db.close();
