import { createRequire } from 'node:module';
import type { Config } from './config.js';
import { routeOf } from './shared/http/route-options.js';

/**
 * OpenTelemetry traces when OTEL_EXPORTER_OTLP_ENDPOINT is set: a span per request (and its
 * handler) from @fastify/otel, a span per SQL statement from the pg instrumentation, sent as
 * OTLP/HTTP JSON to `<endpoint>/v1/traces`. Unset, nothing of OpenTelemetry is loaded. Call it
 * before the app is built: @fastify/otel joins each Fastify instance as it is created.
 * Returns what flushes and stops it.
 */
export async function startTelemetry(config: Pick<Config, 'otelEndpoint'>): Promise<() => Promise<void>> {
  if (!config.otelEndpoint) return async () => {};
  const [{ NodeSDK }, { OTLPTraceExporter }, { PgInstrumentation }, { FastifyOtelInstrumentation }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/instrumentation-pg'),
    import('@fastify/otel'),
  ]);
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'media-publishing-service',
    traceExporter: new OTLPTraceExporter({ url: `${config.otelEndpoint.replace(/\/+$/, '')}/v1/traces` }),
    // Traces only: metrics are Prometheus's (GET /metrics), logs are pino's.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new PgInstrumentation(),
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        // The request and its handler; a span for each of a dozen hooks would cost more than it tells.
        instrumentHooks: false,
        requestHook: (span, request) => {
          span.updateName(`${request.method} ${routeOf(request).url ?? 'unknown route'}`);
          const operationId = routeOf(request).config.operationId ?? routeOf(request).schema?.operationId;
          if (operationId) span.setAttribute('operation.id', operationId);
        },
      }),
    ],
  });
  sdk.start();
  // pg is already loaded (src/db/client.ts is imported statically); requiring it through the
  // instrumentation's hook patches its prototypes in place, for the pool made afterwards.
  createRequire(import.meta.url)('pg');
  return () => sdk.shutdown();
}
