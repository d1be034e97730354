// The operator's command line (the package's bin): see USAGE in cli-commands.ts.
import { runCli } from './cli-commands.js';
import { loadEnvFile } from './env-file.js';

// A reader that stops early (`media create … | head -1`) closes the pipe: writing more fails with
// EPIPE, which unheard ended the process with a stack trace after its work was done. The rest of
// the output is dropped instead (the writes check that the stream still takes them), and the
// command ends as it would have.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
  });
}

loadEnvFile();
process.exitCode = await runCli(process.argv.slice(2));
