import { loadConfig } from '../config.js';
import { createDatabase } from './client.js';
import { migrate } from './migrate.js';

const config = loadConfig();
const database = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(database);
  console.log(`migrations applied (${database.kind})`);
} finally {
  await database.close();
}
