/**
 * The load generator, run as a child process of bench/run.ts so that autocannon's own
 * work does not share an event loop (or a memory figure) with the servers it measures.
 * It takes one scenario per IPC message and answers with a summary.
 */
import autocannon from 'autocannon';

export interface LoadScenario {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Paths each connection cycles through, in order. */
  paths: string[];
  body?: string;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /**
   * A scenario whose requests take a good part of a second (the searches at 20 connections): each
   * of its turns with its floor makes this many requests and waits for all of them, instead of
   * lasting a slice of time. A slice that ends cuts the requests still under way, whose work then
   * counts for no request; where a request takes about as long as the slice, that was most of them
   * (a slow machine's people search measured 4 req/s and a CPU per request of 8-300 ms).
   */
  perTurn?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** How long the measured run lasted, in seconds (10 ms steps). */
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  /** Requests of the warm-up, which precedes the measured run and is not in the figures. */
  warmupTotal: number;
  non2xx: number;
  /** The 304 answers among the non-2xx ones (a conditional request's expected answer). */
  notModified: number;
  errors: number;
  timeouts: number;
}

export type LoadReply = { ok: true; result: LoadResult } | { ok: false; error: string };

// Not in @types/autocannon 7 yet; autocannon 8 runs it before the measured run and
// reports it apart.
type Options = autocannon.Options & { warmup?: { connections: number; duration: number } };

async function run(s: LoadScenario): Promise<LoadResult> {
  const options: Options = {
    url: s.url,
    connections: s.connections,
    ...(s.perTurn ? { amount: s.perTurn } : { duration: s.durationSeconds }),
    timeout: 10,
    method: s.method,
    headers: s.headers,
    ...(s.body !== undefined && { body: s.body }),
    requests: s.paths.map((path) => ({ path })),
    ...(s.warmupSeconds > 0 && { warmup: { connections: s.connections, duration: s.warmupSeconds } }),
  };
  const result = (await autocannon(options)) as autocannon.Result & { warmup?: autocannon.Result };
  return {
    // Over the whole run: autocannon's average is of whole seconds, none in a run shorter than one.
    requestsPerSecond: result.requests.total / Math.max(result.duration, 0.01),
    seconds: result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    warmupTotal: result.warmup?.requests.total ?? 0,
    non2xx: result.non2xx,
    notModified: result.statusCodeStats?.['304']?.count ?? 0,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

process.on('message', (scenario: LoadScenario) => {
  run(scenario).then(
    (result) => process.send?.({ ok: true, result } satisfies LoadReply),
    (err: unknown) => process.send?.({ ok: false, error: err instanceof Error ? err.message : String(err) } satisfies LoadReply),
  );
});
// The parent went away (finished or crashed): nothing left to do.
process.on('disconnect', () => process.exit(0));
// Ctrl-C reaches the whole process group; the parent decides when this child ends.
process.on('SIGINT', () => {});
