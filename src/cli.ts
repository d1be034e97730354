// The operator's command line (the package's bin): see USAGE in cli-commands.ts.
import { runCli } from './cli-commands.js';
import { loadEnvFile } from './env-file.js';

loadEnvFile();
process.exitCode = await runCli(process.argv.slice(2));
