// `npm run db:migrate`: the CLI's `db migrate`.
import { runCli } from '../cli-commands.js';
import { loadEnvFile } from '../env-file.js';

loadEnvFile();
process.exitCode = await runCli(['db', 'migrate']);
