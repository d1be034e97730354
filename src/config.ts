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

const nonNegativeInt = (fallback: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a non-negative integer')
    .transform(Number)
    .pipe(z.int().min(0).max(max))
    .default(fallback);

const flag = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1')
  .default(false);

const url = (protocols: RegExp) =>
  z.url({ protocol: protocols, message: 'must be a URL' }).optional();

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: url(/^postgres(ql)?$/),
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
  RATE_LIMIT_TOKEN: positiveInt(20),
  RATE_LIMIT_AUTH_FAILURES: positiveInt(60),
  BODY_LIMIT: positiveInt(1024 * 1024),
  SHUTDOWN_DELAY_MS: nonNegativeInt(0, 600_000),
  OAUTH_ALLOW_INSECURE_PROVIDERS: flag,
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  publicBaseUrl: string | undefined;
  bootstrapApiKey: string | undefined;
  storageDir: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  rateLimit: { backoffice: number; reader: number; anonymous: number; token: number };
  /** Failed authentications per IP and minute before further attempts are refused (429). */
  authFailureLimit: number;
  bodyLimit: number;
  /** On SIGTERM, how long /ready answers 503 while requests are still served, so a load balancer stops sending. */
  shutdownDelayMs: number;
  /** Identity-provider URLs may be plain http or point at loopback and private addresses (development, tests). */
  oauthAllowInsecureProviders: boolean;
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
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
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
    authFailureLimit: e.RATE_LIMIT_AUTH_FAILURES,
    bodyLimit: e.BODY_LIMIT,
    shutdownDelayMs: e.SHUTDOWN_DELAY_MS,
    oauthAllowInsecureProviders: e.OAUTH_ALLOW_INSECURE_PROVIDERS,
  };
}
