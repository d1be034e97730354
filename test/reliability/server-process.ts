import type { ChildProcess } from 'node:child_process';
import { type Agent, request } from 'node:http';
import { freePort, serverArgs, spawnNode, waitForAnswer } from '../setup/processes.js';

/** The server process (src/main.ts) in a process group of its own, so that nothing outlives a test. */
export interface ServerProcess {
  child: ChildProcess;
  port: number;
  exited: Promise<number | null>;
  /** The JSON log lines written so far. */
  logs: () => Array<Record<string, unknown> & { msg: string }>;
  stderr: () => string;
  /** SIGKILL to the whole group; safe to call twice. */
  kill: () => void;
}

export { freePort };

export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const proc = spawnNode(serverArgs(), { env: { PORT: String(port), LOG_LEVEL: 'info', ...env } });
  return { child: proc.child, port, exited: proc.exited, logs: proc.logs, stderr: proc.stderr, kill: proc.kill };
}

export const waitForReady = (server: ServerProcess, timeoutMs?: number) => waitForAnswer(server, server.port, '/ready', timeoutMs);

/**
 * The pause a load test's client takes after each answer. Clients that never paused kept both
 * cores of a CI machine busy for as long as their test ran (the server and this process), which
 * the other test files' worker waited out; six or eight clients at this pace still keep several
 * requests in flight at every moment, which is what a crash or a drain is tested against.
 */
export const CLIENT_PAUSE_MS = 20;

export const pause = () => new Promise((resolve) => setTimeout(resolve, CLIENT_PAUSE_MS));

export interface Outcome {
  method: string;
  path: string;
  /** Milliseconds since the epoch when the request was sent, and when its answer (or failure) arrived. */
  sentAt: number;
  at: number;
  status?: number;
  body?: string;
  headers?: Record<string, string | string[] | undefined>;
  /** A socket-level failure: ECONNREFUSED, ECONNRESET, ... */
  error?: string;
  reusedSocket: boolean;
}

/** One HTTP request over node:http (keep-alive through `agent`), never rejecting. */
export function send(
  agent: Agent | undefined,
  port: number,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Outcome> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const sentAt = Date.now();
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: agent ?? false,
        headers: { ...(payload && { 'content-type': 'application/json' }), ...options.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({ method, path, sentAt, at: Date.now(), status: res.statusCode!, body, headers: res.headers, reusedSocket: req.reusedSocket }),
        );
        res.on('error', (err: NodeJS.ErrnoException) =>
          resolve({ method, path, sentAt, at: Date.now(), error: err.code ?? err.message, reusedSocket: req.reusedSocket }),
        );
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({ method, path, sentAt, at: Date.now(), error: err.code ?? err.message, reusedSocket: req.reusedSocket }),
    );
    req.end(payload);
  });
}
