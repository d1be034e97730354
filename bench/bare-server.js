// The bare server a cold start of the service is measured against (bench/cold-start.ts): Fastify
// and a pg pool, one query to know the database answers, then /health. Plain JavaScript, as
// `node dist/main.js` is, so that neither side pays a TypeScript loader.
import process from 'node:process';
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
await pool.query('select 1');
const app = Fastify();
app.get('/health', async () => ({ status: 'ok' }));
app.addHook('onClose', () => pool.end());
process.once('SIGINT', () => void app.close().then(() => process.exit(0)));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
