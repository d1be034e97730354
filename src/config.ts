import { isIP } from 'node:net';
import { z } from 'zod';

const port = z
  .string()
  .regex(/^\d+$/, 'must be an integer')
  .transform(Number)
  .pipe(z.int().min(1).max(65535));

const positiveInt = (fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a positive integer')
    .transform(Number)
    .pipe(z.int().min(1).max(10_000_000))
    .default(fallback);

const nonNegativeInt = (max: number) => z.string().regex(/^\d+$/, 'must be a non-negative integer').transform(Number).pipe(z.int().min(0).max(max));

/**
 * SIGTERM's delay when SHUTDOWN_DELAY_MS is unset: the listener keeps accepting that long, so a
 * request already on its way (a connection still in the accept queue, a request on a keep-alive
 * connection not read yet) is answered, not reset. Measured in docs/measurements.md (issue 47).
 */
export const DEFAULT_SHUTDOWN_DELAY_MS = 2_000;

const flag = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1')
  .default(false);

const url = (protocols: RegExp) =>
  z.url({ protocol: protocols, message: 'must be a URL' }).optional();

/** `*`, or a comma-separated list of origins (`https://app.example.com`), each normalised as browsers send it. */
const origins = z
  .string()
  .transform((value, ctx) => {
    const list = value.split(',').map((entry) => entry.trim()).filter(Boolean);
    if (list.length === 1 && list[0] === '*') return '*' as const;
    const parsed = list.map((entry) => URL.canParse(entry) ? new URL(entry) : undefined);
    const plainOrigin = (url: URL | undefined) =>
      url && /^https?:$/.test(url.protocol) && url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    if (list.length === 0 || !parsed.every(plainOrigin)) {
      ctx.addIssue({ code: 'custom', message: 'must be * or a comma-separated list of origins such as https://app.example.com' });
      return z.NEVER;
    }
    return [...new Set(parsed.map((url) => url!.origin))];
  })
  .optional();

// proxy-addr's names for the private ranges, besides addresses and CIDR ranges.
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isAddressOrRange = (entry: string) => {
  if (PROXY_NAMES.has(entry) || isIP(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  return rest.length === 0 && family !== 0 && /^\d{1,3}$/.test(bits ?? '') && Number(bits) <= (family === 4 ? 32 : 128);
};

/** Off (`false`, `0`), a hop count, or the proxies' addresses and CIDR ranges; never "trust everyone". */
const trustProxy = z
  .string()
  .transform((value, ctx): false | number | string[] => {
    const trimmed = value.trim();
    if (trimmed === 'false' || trimmed === '0') return false;
    if (/^\d+$/.test(trimmed) && Number(trimmed) <= 32) return Number(trimmed);
    const list = trimmed.split(',').map((entry) => entry.trim()).filter(Boolean);
    if (list.length === 0 || !list.every(isAddressOrRange)) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be false, a hop count (1-32) or a comma-separated list of IP addresses and CIDR ranges',
      });
      return z.NEVER;
    }
    return list;
  })
  .default(false);

/** A size in bytes, up to 1 GiB. */
const byteSize = (fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a number of bytes')
    .transform(Number)
    .pipe(z.int().min(1).max(1024 ** 3))
    .default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: url(/^postgres(ql)?$/),
  // A replica for the Reader and Public trees' reads (their `replica` routes' context, contextOf); PostgreSQL only.
  DATABASE_READ_URL: url(/^postgres(ql)?$/),
  DATA_DIR: z.string().min(1).default('./data'),
  REDIS_URL: url(/^rediss?$/),
  PUBLIC_BASE_URL: url(/^https?$/),
  // A shorter secret would be guessable; keys we generate carry 256 bits.
  BOOTSTRAP_API_KEY: z.string().min(32, 'must be at least 32 characters').max(200).optional(),
  STORAGE_DIR: z.string().min(1).default('./data/storage'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_BACKOFFICE: positiveInt(1000),
  RATE_LIMIT_READER: positiveInt(300),
  RATE_LIMIT_ANONYMOUS: positiveInt(60),
  PUBLIC_API_SUNSET: z.iso
    .date({ message: 'must be a date (YYYY-MM-DD)' })
    .transform((day) => new Date(`${day}T00:00:00.000Z`))
    .default(new Date('2027-12-31T00:00:00.000Z')),
  RATE_LIMIT_TOKEN: positiveInt(20),
  RATE_LIMIT_AUTH_FAILURES: positiveInt(60),
  BODY_LIMIT: positiveInt(1024 * 1024),
  // Unset: DEFAULT_SHUTDOWN_DELAY_MS on SIGTERM, none on SIGINT (config.shutdownDelayMs).
  SHUTDOWN_DELAY_MS: nonNegativeInt(600_000).optional(),
  OAUTH_ALLOW_INSECURE_PROVIDERS: flag,
  CORS_ORIGINS: origins,
  CORS_BACKOFFICE_ORIGINS: origins,
  TRUST_PROXY: trustProxy,
  // The deployment operator's key (/operator/v1: medias and their keys); unset, that API does not exist.
  OPERATOR_API_KEY: z.string().min(32, 'must be at least 32 characters').max(200).optional(),
  RATE_LIMIT_OPERATOR: positiveInt(60),
  // Prometheus scrapes GET /metrics with this bearer token; unset (and no METRICS_PORT), there is no /metrics.
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').max(200).optional(),
  METRICS_PORT: port.optional(),
  // Read by the OpenTelemetry SDK itself (src/telemetry.ts); validated here with the rest.
  OTEL_EXPORTER_OTLP_ENDPOINT: url(/^https?$/),
  UPLOAD_LIMIT: byteSize(20 * 1024 * 1024),
  READER_UPLOAD_LIMIT: byteSize(5 * 1024 * 1024),
  RATE_LIMIT_READER_UPLOADS: positiveInt(10),
  // S3-compatible storage instead of STORAGE_DIR when S3_BUCKET is set.
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name').optional(),
  S3_ENDPOINT: url(/^https?$/),
  S3_REGION: z.string().regex(/^[a-z0-9-]{1,50}$/, 'must be a region such as us-east-1').optional(),
  S3_ACCESS_KEY_ID: z.string().max(256).optional(),
  S3_SECRET_ACCESS_KEY: z.string().max(256).optional(),
  S3_FORCE_PATH_STYLE: flag,
  // Mail transport (messenger): nodemailer over SMTP; unset, messages are rendered and kept in the outbox as not_sent.
  SMTP_URL: url(/^smtps?$/),
  MAIL_FROM: z.string().min(3).max(300).regex(/@/, 'must be an e-mail address, optionally with a name: News <news@example.com>').default('newsletter@localhost'),
  MAIL_LEASE_SECONDS: positiveInt(60),
  // Webhook targets on loopback or private addresses (development, tests); refused otherwise.
  WEBHOOK_ALLOW_PRIVATE: flag,
  // The first retry of a failed webhook delivery; each next one waits twice as long, for a day.
  WEBHOOK_RETRY_BASE_MS: positiveInt(30_000),
  // Webhook deliveries that ended (succeeded or failed) are pruned daily after this many days.
  WEBHOOK_DELIVERY_RETENTION_DAYS: positiveInt(30),
  // Audit log entries older than this many days are pruned daily.
  AUDIT_RETENTION_DAYS: positiveInt(365),
  // Revisions older than this many days are pruned daily (a record's latest never); unset: all kept.
  REVISION_RETENTION_DAYS: z.string().regex(/^\d+$/, 'must be a positive integer').transform(Number).pipe(z.int().min(1).max(10_000_000)).optional(),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** DATABASE_READ_URL */
  databaseReadUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  publicBaseUrl: string | undefined;
  bootstrapApiKey: string | undefined;
  storageDir: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  rateLimit: { backoffice: number; reader: number; anonymous: number; token: number };
  /** The day the deprecated Public API stops answering: its answers' `Sunset` header. */
  publicApiSunset: Date;
  /** Failed authentications per IP and minute before further attempts are refused (429). */
  authFailureLimit: number;
  bodyLimit: number;
  /**
   * After a signal, how long /ready answers 503 while the server still accepts and serves, before
   * it stops accepting: SHUTDOWN_DELAY_MS for either signal, or else DEFAULT_SHUTDOWN_DELAY_MS on
   * SIGTERM and none on SIGINT (Ctrl-C in a terminal, where no client is waiting).
   */
  shutdownDelayMs: { sigterm: number; sigint: number };
  /** Identity-provider URLs may be plain http or point at loopback and private addresses (development, tests). */
  oauthAllowInsecureProviders: boolean;
  /** Browser origins allowed to call the Reader (token endpoint included) and Public APIs; unset: none. */
  corsOrigins: '*' | string[] | undefined;
  /** Browser origins allowed to call the Backoffice; unset: none. */
  corsBackofficeOrigins: '*' | string[] | undefined;
  /** Fastify's trustProxy: off, the number of proxy hops, or the trusted proxies' addresses and ranges. */
  trustProxy: false | number | string[];
  /** Enables the operator API (/operator/v1) for callers presenting exactly this key. */
  operatorApiKey: string | undefined;
  /** Requests a minute to the operator API, per IP. */
  operatorRateLimit: number;
  /** Bearer token of GET /metrics on the API's port; unset, that route does not exist. */
  metricsToken: string | undefined;
  /** A port of its own for GET /metrics (on HOST), the token not required there unless set. */
  metricsPort: number | undefined;
  /** OTLP/HTTP collector for traces; unset, no tracing code is loaded. */
  otelEndpoint: string | undefined;
  /** Largest upload in bytes on the Backoffice (413 beyond). */
  uploadLimit: number;
  /** Largest upload in bytes on the Reader. */
  readerUploadLimit: number;
  /** Reader uploads a minute per reader. */
  readerUploadRateLimit: number;
  /** SMTP server of outgoing mail (smtp:// or smtps://, credentials in the URL); unset, messages stay `not_sent` in the outbox. */
  smtpUrl: string | undefined;
  /** Sender of every message. */
  mailFrom: string;
  /** How long a message being sent is held before another send run may retry it (after a crash). */
  mailLeaseSeconds: number;
  /** Webhook targets may be plain http and point at loopback and private addresses (development, tests). */
  webhookAllowPrivate: boolean;
  /** Wait before a failed webhook delivery's first retry, doubled for each next one. */
  webhookRetryBaseMs: number;
  /** Days an ended webhook delivery and its tries are kept. */
  webhookDeliveryRetentionDays: number;
  auditRetentionDays: number;
  /** Days a revision is kept (a record's latest always); undefined: every revision is kept. */
  revisionRetentionDays: number | undefined;
  /** S3-compatible storage, used instead of STORAGE_DIR when set. */
  s3:
    | {
        bucket: string;
        endpoint: string | undefined;
        region: string;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        forcePathStyle: boolean;
      }
    | undefined;
}

export class ConfigError extends Error {}

/** Parses the environment once; the first bad variable is reported in one line. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset", as docker-compose and .env files often leave them.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  const e = parsed.data;
  if (e.DATABASE_READ_URL && !e.DATABASE_URL) throw new ConfigError('Invalid configuration: DATABASE_READ_URL is set but DATABASE_URL is not');
  // One secret must not open both doors: the operator key is never a Backoffice key.
  if (e.OPERATOR_API_KEY && e.OPERATOR_API_KEY === e.BOOTSTRAP_API_KEY) {
    throw new ConfigError('Invalid configuration: OPERATOR_API_KEY must differ from BOOTSTRAP_API_KEY');
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT) {
    throw new ConfigError('Invalid configuration: METRICS_PORT must differ from PORT');
  }
  if (!e.S3_BUCKET) {
    const stray = (['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).find((name) => e[name] !== undefined);
    if (stray) throw new ConfigError(`Invalid configuration: ${stray} is set but S3_BUCKET is not`);
  }
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError('Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databaseReadUrl: e.DATABASE_READ_URL,
    dataDir: e.DATA_DIR,
    redisUrl: e.REDIS_URL,
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    bootstrapApiKey: e.BOOTSTRAP_API_KEY,
    storageDir: e.STORAGE_DIR,
    logLevel: e.LOG_LEVEL,
    rateLimit: {
      backoffice: e.RATE_LIMIT_BACKOFFICE,
      reader: e.RATE_LIMIT_READER,
      anonymous: e.RATE_LIMIT_ANONYMOUS,
      token: e.RATE_LIMIT_TOKEN,
    },
    publicApiSunset: e.PUBLIC_API_SUNSET,
    authFailureLimit: e.RATE_LIMIT_AUTH_FAILURES,
    bodyLimit: e.BODY_LIMIT,
    shutdownDelayMs: { sigterm: e.SHUTDOWN_DELAY_MS ?? DEFAULT_SHUTDOWN_DELAY_MS, sigint: e.SHUTDOWN_DELAY_MS ?? 0 },
    oauthAllowInsecureProviders: e.OAUTH_ALLOW_INSECURE_PROVIDERS,
    corsOrigins: e.CORS_ORIGINS,
    corsBackofficeOrigins: e.CORS_BACKOFFICE_ORIGINS,
    trustProxy: e.TRUST_PROXY,
    operatorApiKey: e.OPERATOR_API_KEY,
    operatorRateLimit: e.RATE_LIMIT_OPERATOR,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    otelEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
    uploadLimit: e.UPLOAD_LIMIT,
    readerUploadLimit: e.READER_UPLOAD_LIMIT,
    readerUploadRateLimit: e.RATE_LIMIT_READER_UPLOADS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    mailLeaseSeconds: e.MAIL_LEASE_SECONDS,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    webhookRetryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
    webhookDeliveryRetentionDays: e.WEBHOOK_DELIVERY_RETENTION_DAYS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    revisionRetentionDays: e.REVISION_RETENTION_DAYS,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION ?? 'us-east-1',
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : undefined,
  };
}
