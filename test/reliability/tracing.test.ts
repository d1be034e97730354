import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onConnection, withDatabase } from '../setup/global-setup.js';
import { migratedDataDir } from '../setup/processes.js';
import { type ServerProcess, startServer, waitForReady } from './server-process.js';

// The service as a process (src/main.ts, transpiled as the image runs it), exporting to a tiny
// OTLP/HTTP receiver in this process; on PostgreSQL the SQL spans come too (PGlite has no driver
// to instrument).

interface OtlpSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes?: Array<{ key: string; value: Record<string, unknown> }>;
}
interface Received {
  scope: string;
  service: unknown;
  span: OtlpSpan;
}

const received: Received[] = [];
let receiver: Server;
let receiverPort: number;
let server: ServerProcess;
const dataDir = mkdtempSync(join(tmpdir(), 'mps-tracing-'));
const postgresUrl = process.env.TEST_DATABASE_URL;
let database: string | undefined;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += String(chunk)));
    req.on('end', () => {
      if (req.url === '/v1/traces' && /json/.test(String(req.headers['content-type']))) {
        const request = JSON.parse(body) as {
          resourceSpans: Array<{
            resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
            scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }>;
          }>;
        };
        for (const rs of request.resourceSpans) {
          const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue;
          for (const ss of rs.scopeSpans) for (const span of ss.spans) received.push({ scope: ss.scope.name, service, span });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as { port: number }).port;

  const env: Record<string, string> = {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiverPort}`,
    // Export at once rather than every 5 s.
    OTEL_BSP_SCHEDULE_DELAY: '100',
    DATA_DIR: postgresUrl ? dataDir : migratedDataDir(dataDir),
    LOG_LEVEL: 'warn',
  };
  if (postgresUrl) {
    database = `mps_tracing_${randomBytes(6).toString('hex')}`;
    await onConnection(postgresUrl, `create database ${database}`);
    env.DATABASE_URL = withDatabase(postgresUrl, database);
  }
  server = await startServer(env);
  await waitForReady(server);
}, 120_000);

afterAll(async () => {
  server?.kill();
  await server?.exited;
  await new Promise((resolve) => receiver?.close(resolve));
  if (database && postgresUrl) await onConnection(postgresUrl, `drop database if exists ${database} with (force)`);
  rmSync(dataDir, { recursive: true, force: true });
});

async function waitFor(predicate: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) {
      throw new Error(`no ${what} arrived; received: ${JSON.stringify(received.map((r) => [r.scope, r.span.name]))}\n${server.stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const attribute = (span: OtlpSpan, key: string) => span.attributes?.find((a) => a.key === key)?.value;

describe('OpenTelemetry with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('exports a span for an HTTP request, named after its route and carrying its operationId', async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/health`);
    expect(res.status).toBe(200);
    const isHealth = (r: Received) => r.scope === '@fastify/otel' && r.span.name === 'GET /health';
    await waitFor(() => received.some(isHealth), 'span for GET /health');
    const { span, service } = received.find(isHealth)!;
    expect(service).toBe('media-publishing-service');
    expect(attribute(span, 'operation.id')).toEqual({ stringValue: 'getHealth' });
    expect(span.parentSpanId ?? '').toBe('');
  });

  it.skipIf(!postgresUrl)('exports the SQL of a request as pg spans inside that request’s trace', async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/ready`);
    expect(res.status).toBe(200);
    const isReady = (r: Received) => r.scope === '@fastify/otel' && r.span.name === 'GET /ready';
    await waitFor(() => received.some(isReady), 'span for GET /ready');
    const traceId = received.find(isReady)!.span.traceId;
    const inTrace = (r: Received) => r.scope === '@opentelemetry/instrumentation-pg' && r.span.traceId === traceId;
    await waitFor(() => received.some(inTrace), 'pg span in the trace of GET /ready');
    const query = received.find((r) => inTrace(r) && /select/i.test(JSON.stringify(r.span)))!;
    expect(query.span.name).toMatch(/^pg\.query/);
    expect(JSON.stringify(query.span.attributes)).toMatch(/select 1/i);
  });
});
