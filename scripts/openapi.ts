// Prints the OpenAPI document as the service would serve it, built over an in-memory PGlite
// (no DATABASE_URL, no data directory): `npm run --silent openapi > openapi.json`.
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';

const config = { ...loadConfig({ ...process.env, LOG_LEVEL: 'silent' }), databaseUrl: undefined };
const database = await createDatabase({});
await migrate(database);
const app = await buildApp({ config, database });
await app.ready();
process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
