import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const VARIABLES = [
  'NODE_ENV', 'PORT', 'HOST', 'DATABASE_URL', 'DATA_DIR', 'REDIS_URL', 'PUBLIC_BASE_URL', 'BOOTSTRAP_API_KEY',
  'STORAGE_DIR', 'LOG_LEVEL', 'RATE_LIMIT_BACKOFFICE', 'RATE_LIMIT_READER', 'RATE_LIMIT_ANONYMOUS',
  'RATE_LIMIT_TOKEN', 'RATE_LIMIT_AUTH_FAILURES', 'BODY_LIMIT', 'SHUTDOWN_DELAY_MS', 'OAUTH_ALLOW_INSECURE_PROVIDERS',
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
      authFailureLimit: 60,
      bodyLimit: 1024 * 1024,
      shutdownDelayMs: 0,
      oauthAllowInsecureProviders: false,
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
      authFailureLimit: 9,
      bodyLimit: 2048,
      shutdownDelayMs: 5000,
      oauthAllowInsecureProviders: true,
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
  ])('refuses %s=%s with a one-line ConfigError naming the variable', (name, value) => {
    const err = failure({ [name]: value });
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).not.toContain('\n');
    expect(err.message).toMatch(new RegExp(`\\b${name}\\b`));
    // It names this variable and no other one.
    expect(VARIABLES.filter((v) => new RegExp(`\\b${v}\\b`).test(err.message))).toEqual([name]);
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
});
