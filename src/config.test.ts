import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const VARIABLES = [
  'NODE_ENV', 'PORT', 'HOST', 'DATABASE_URL', 'DATA_DIR', 'REDIS_URL', 'PUBLIC_BASE_URL', 'BOOTSTRAP_API_KEY',
  'STORAGE_DIR', 'LOG_LEVEL', 'RATE_LIMIT_BACKOFFICE', 'RATE_LIMIT_READER', 'RATE_LIMIT_ANONYMOUS',
  'RATE_LIMIT_TOKEN', 'RATE_LIMIT_AUTH_FAILURES', 'BODY_LIMIT', 'SHUTDOWN_DELAY_MS', 'OAUTH_ALLOW_INSECURE_PROVIDERS',
  'CORS_ORIGINS', 'CORS_BACKOFFICE_ORIGINS', 'TRUST_PROXY',
  'METRICS_TOKEN', 'METRICS_PORT', 'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OPERATOR_API_KEY', 'RATE_LIMIT_OPERATOR', 'DATABASE_READ_URL', 'AUDIT_RETENTION_DAYS', 'WEBHOOK_DELIVERY_RETENTION_DAYS',
];

const failure = (env: Record<string, string>): ConfigError => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
};

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    expect(loadConfig({})).toEqual({
      env: 'development',
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      dataDir: './data',
      redisUrl: undefined,
      publicBaseUrl: undefined,
      bootstrapApiKey: undefined,
      storageDir: './data/storage',
      logLevel: 'info',
      rateLimit: { backoffice: 1000, reader: 300, anonymous: 60, token: 20 },
      publicApiSunset: new Date('2027-12-31T00:00:00.000Z'),
      authFailureLimit: 60,
      bodyLimit: 1024 * 1024,
      shutdownDelayMs: { sigterm: 2000, sigint: 0 },
      oauthAllowInsecureProviders: false,
      metricsToken: undefined,
      metricsPort: undefined,
      otelEndpoint: undefined,
      corsOrigins: undefined,
      corsBackofficeOrigins: undefined,
      trustProxy: false,
      uploadLimit: 20 * 1024 * 1024,
      readerUploadLimit: 5 * 1024 * 1024,
      readerUploadRateLimit: 10,
      s3: undefined,
      operatorApiKey: undefined,
      operatorRateLimit: 60,
      smtpUrl: undefined,
      mailFrom: 'newsletter@localhost',
      mailLeaseSeconds: 60,
      webhookAllowPrivate: false,
      webhookRetryBaseMs: 30_000,
      webhookDeliveryRetentionDays: 30,
      databaseReadUrl: undefined,
      auditRetentionDays: 365,
    });
  });

  it('reads every variable it knows and trims a trailing slash from PUBLIC_BASE_URL', () => {
    const key = 'k'.repeat(40);
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgresql://user:pw@db:5432/mps',
      DATA_DIR: '/var/lib/mps',
      REDIS_URL: 'redis://cache:6379',
      PUBLIC_BASE_URL: 'https://news.example.com/',
      BOOTSTRAP_API_KEY: key,
      STORAGE_DIR: '/srv/uploads',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_BACKOFFICE: '5',
      RATE_LIMIT_READER: '6',
      RATE_LIMIT_ANONYMOUS: '7',
      RATE_LIMIT_TOKEN: '8',
      RATE_LIMIT_AUTH_FAILURES: '9',
      BODY_LIMIT: '2048',
      SHUTDOWN_DELAY_MS: '5000',
      OAUTH_ALLOW_INSECURE_PROVIDERS: 'true',
      METRICS_TOKEN: 'm'.repeat(32),
      METRICS_PORT: '9464',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      CORS_ORIGINS: 'https://News.example.com, http://localhost:5173/',
      CORS_BACKOFFICE_ORIGINS: '*',
      TRUST_PROXY: '10.0.0.0/8, 192.168.1.1, fd00::/8',
      OPERATOR_API_KEY: 'o'.repeat(40),
      RATE_LIMIT_OPERATOR: '11',
      PUBLIC_API_SUNSET: '2029-01-31',
      SMTP_URL: 'smtp://user:pw@mail:1025',
      MAIL_FROM: 'News <news@example.com>',
      MAIL_LEASE_SECONDS: '30',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_BASE_MS: '1000',
      WEBHOOK_DELIVERY_RETENTION_DAYS: '7',
      DATABASE_READ_URL: 'postgresql://reader:pw@replica:5432/mps',
      AUDIT_RETENTION_DAYS: '90',
    });
    expect(config).toEqual({
      env: 'production',
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgresql://user:pw@db:5432/mps',
      dataDir: '/var/lib/mps',
      redisUrl: 'redis://cache:6379',
      publicBaseUrl: 'https://news.example.com',
      bootstrapApiKey: key,
      storageDir: '/srv/uploads',
      logLevel: 'warn',
      rateLimit: { backoffice: 5, reader: 6, anonymous: 7, token: 8 },
      publicApiSunset: new Date('2029-01-31T00:00:00.000Z'),
      authFailureLimit: 9,
      bodyLimit: 2048,
      shutdownDelayMs: { sigterm: 5000, sigint: 5000 },
      oauthAllowInsecureProviders: true,
      metricsToken: 'm'.repeat(32),
      metricsPort: 9464,
      otelEndpoint: 'http://collector:4318',
      corsOrigins: ['https://news.example.com', 'http://localhost:5173'],
      corsBackofficeOrigins: '*',
      trustProxy: ['10.0.0.0/8', '192.168.1.1', 'fd00::/8'],
      uploadLimit: 20 * 1024 * 1024,
      readerUploadLimit: 5 * 1024 * 1024,
      readerUploadRateLimit: 10,
      s3: undefined,
      operatorApiKey: 'o'.repeat(40),
      operatorRateLimit: 11,
      smtpUrl: 'smtp://user:pw@mail:1025',
      mailFrom: 'News <news@example.com>',
      mailLeaseSeconds: 30,
      webhookAllowPrivate: true,
      webhookRetryBaseMs: 1000,
      webhookDeliveryRetentionDays: 7,
      databaseReadUrl: 'postgresql://reader:pw@replica:5432/mps',
      auditRetentionDays: 90,
    });
  });

  it('treats empty strings as unset, as docker-compose and .env files leave them', () => {
    const config = loadConfig({ PORT: '', DATABASE_URL: '', LOG_LEVEL: '', BOOTSTRAP_API_KEY: '', RATE_LIMIT_BACKOFFICE: '' });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.logLevel).toBe('info');
    expect(config.bootstrapApiKey).toBeUndefined();
    expect(config.rateLimit.backoffice).toBe(1000);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '0'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'not a url'],
    ['DATABASE_READ_URL', 'mysql://replica'],
    ['AUDIT_RETENTION_DAYS', '0'],
    ['REDIS_URL', 'http://cache:6379'],
    ['PUBLIC_BASE_URL', 'ftp://example.com'],
    ['LOG_LEVEL', 'loud'],
    ['NODE_ENV', 'staging'],
    ['BOOTSTRAP_API_KEY', 'too-short'],
    ['RATE_LIMIT_BACKOFFICE', '0'],
    ['RATE_LIMIT_READER', '-5'],
    ['RATE_LIMIT_TOKEN', '1.5'],
    ['BODY_LIMIT', 'lots'],
    ['SHUTDOWN_DELAY_MS', '-1'],
    ['SHUTDOWN_DELAY_MS', '999999999'],
    ['OAUTH_ALLOW_INSECURE_PROVIDERS', 'yes'],
    ['METRICS_TOKEN', 'short'],
    ['METRICS_PORT', 'abc'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
    ['CORS_ORIGINS', 'https://app.example.com/path'],
    ['CORS_ORIGINS', '*, https://app.example.com'],
    ['CORS_ORIGINS', 'ftp://app.example.com'],
    ['CORS_BACKOFFICE_ORIGINS', 'admin.example.com'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', '33'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '10.0.0.1, proxy.internal'],
    ['OPERATOR_API_KEY', 'too-short'],
    ['RATE_LIMIT_OPERATOR', '0'],
  ])('refuses %s=%s with a one-line ConfigError naming the variable', (name, value) => {
    const err = failure({ [name]: value });
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).not.toContain('\n');
    expect(err.message).toMatch(new RegExp(`\\b${name}\\b`));
    // It names this variable and no other one.
    expect(VARIABLES.filter((v) => new RegExp(`\\b${v}\\b`).test(err.message))).toEqual([name]);
  });

  it('reads TRUST_PROXY as off, a hop count, or addresses, ranges and proxy-addr names', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, uniquelocal, ::1' }).trustProxy).toEqual(['loopback', 'uniquelocal', '::1']);
  });

  it('refuses METRICS_PORT equal to PORT: the metrics listener needs a port of its own', () => {
    expect(failure({ PORT: '9464', METRICS_PORT: '9464' }).message).toBe('Invalid configuration: METRICS_PORT must differ from PORT');
    expect(failure({ METRICS_PORT: '3000' }).message).toBe('Invalid configuration: METRICS_PORT must differ from PORT');
  });

  it('refuses an OPERATOR_API_KEY equal to BOOTSTRAP_API_KEY: the operator key is never a Backoffice key', () => {
    const key = 'same-secret-for-both-'.repeat(2);
    expect(failure({ OPERATOR_API_KEY: key, BOOTSTRAP_API_KEY: key }).message).toBe(
      'Invalid configuration: OPERATOR_API_KEY must differ from BOOTSTRAP_API_KEY',
    );
  });

  it('does not echo the refused secret of a short BOOTSTRAP_API_KEY', () => {
    const err = failure({ BOOTSTRAP_API_KEY: 'hunter2-secret' });
    expect(err.message).not.toContain('hunter2-secret');
  });

  it('reports the first bad variable when several are wrong, still on one line', () => {
    const err = failure({ PORT: 'abc', LOG_LEVEL: 'loud' });
    expect(err.message.split('\n')).toHaveLength(1);
    expect(err.message).toMatch(/PORT|LOG_LEVEL/);
  });

  it('reads PUBLIC_API_SUNSET as a day (the Public answers\' Sunset), 2027-12-31 when unset, and refuses anything else', () => {
    expect(loadConfig({}).publicApiSunset.toISOString()).toBe('2027-12-31T00:00:00.000Z');
    expect(loadConfig({ PUBLIC_API_SUNSET: '2028-03-01' }).publicApiSunset.toISOString()).toBe('2028-03-01T00:00:00.000Z');
    expect(failure({ PUBLIC_API_SUNSET: 'next year' }).message).toBe('Invalid configuration: PUBLIC_API_SUNSET must be a date (YYYY-MM-DD)');
  });
});
