import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unsafeProviderUrl } from '../../src/modules/oauth/provider-urls.js';
import { type TestContext, createTestApp } from '../setup/app.js';
import { type SeededMedia, client, seedMedia } from '../setup/factories.js';

// Issue 7.7: what a viewer key may read, and where identity providers may live.
let strict: TestContext;
let media: SeededMedia;

beforeAll(async () => {
  strict = await createTestApp({ oauthAllowInsecureProviders: false });
  media = await seedMedia(strict.app);
});
afterAll(() => strict?.close());

const provider = (urls: Record<string, unknown> = {}) => ({
  name: 'Corporate SSO',
  issuer: 'https://sso.example.com',
  authorization_endpoint: 'https://sso.example.com/authorize',
  token_endpoint: 'https://sso.example.com/token',
  jwks_uri: 'https://sso.example.com/jwks',
  client_id: 'mps',
  client_secret: 'secret-of-mps',
  ...urls,
});

describe('a viewer key', () => {
  it("reads no readers' personal data and no credentials metadata: every readerhub:read and admin:read route is a 403", async () => {
    const viewer = client(strict.app, media.keys.viewer);
    const guarded = strict.app.routeTable.filter(
      (r) => r.interface === 'backoffice' && r.method === 'GET' && (r.permission === 'readerhub:read' || r.permission === 'admin:read'),
    );
    expect(guarded.map((r) => r.url)).toEqual(expect.arrayContaining(['/core/v2/api-keys', '/core/v2/oauth/clients', '/core/v2/oauth/providers']));
    for (const route of guarded) {
      const url = route.url.replace(/:[A-Za-z_]+/g, '0190c9a8-1234-7000-8000-000000000000');
      const res = await viewer.get(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(403);
      expect(res.json()).toEqual({ error: expect.any(String), code: expect.any(String) });
    }
  });

  it('still reads the editorial areas', async () => {
    expect((await client(strict.app, media.keys.viewer).get('/core/v2/categories')).statusCode).toBe(200);
  });
});

describe('identity-provider URLs', () => {
  it.each([
    ['token_endpoint', 'http://sso.example.com/token', 'https'],
    ['authorization_endpoint', 'http://sso.example.com/authorize', 'https'],
    ['jwks_uri', 'https://127.0.0.1/jwks', 'loopback'],
    ['jwks_uri', 'https://2130706433/jwks', 'loopback'],
    ['userinfo_endpoint', 'https://[::1]/userinfo', 'loopback'],
    ['userinfo_endpoint', 'https://[::ffff:127.0.0.1]/userinfo', 'loopback'],
    ['token_endpoint', 'https://10.0.0.7/token', 'private'],
    ['token_endpoint', 'https://192.168.1.1/token', 'private'],
    ['token_endpoint', 'https://172.20.0.1/token', 'private'],
    ['jwks_uri', 'https://169.254.169.254/latest/meta-data', 'link-local'],
    ['jwks_uri', 'https://[fe80::1]/jwks', 'link-local'],
    ['jwks_uri', 'https://[fd12::1]/jwks', 'private'],
    ['token_endpoint', 'https://localhost/token', 'localhost'],
    ['token_endpoint', 'https://idp.localhost./token', 'localhost'],
    ['issuer', 'http://sso.example.com', 'https'],
  ])('refuses %s %s with 400 insecure_provider_url naming the field', async (field, value, why) => {
    const res = await client(strict.app, media.keys.admin).post('/core/v2/oauth/providers', provider({ [field]: value }));
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json();
    expect(body).toEqual({ error: expect.any(String), code: 'insecure_provider_url', details: [{ path: field, message: expect.any(String) }] });
    expect(body.details[0].message).toMatch(why === 'https' ? /https/ : why === 'localhost' ? /localhost/ : /loopback, private or link-local/);
  });

  it('accepts public https URLs, and an issuer that is not a URL', async () => {
    const admin = client(strict.app, media.keys.admin);
    expect((await admin.post('/core/v2/oauth/providers', provider())).statusCode).toBe(201);
    const res = await admin.post('/core/v2/oauth/providers', provider({ name: 'Other', issuer: 'urn:example:sso', jwks_uri: 'https://8.8.8.8/jwks' }));
    expect(res.statusCode, res.body).toBe(201);
  });

  it('accepts loopback and plain http with OAUTH_ALLOW_INSECURE_PROVIDERS', async () => {
    const dev = await createTestApp({ oauthAllowInsecureProviders: true });
    try {
      const key = (await seedMedia(dev.app)).keys.admin;
      const res = await client(dev.app, key).post(
        '/core/v2/oauth/providers',
        provider({ issuer: 'http://127.0.0.1:9999', token_endpoint: 'http://127.0.0.1:9999/token', jwks_uri: 'http://localhost:9999/jwks' }),
      );
      expect(res.statusCode, res.body).toBe(201);
    } finally {
      await dev.close();
    }
  });

  it('reads IP literals by address, whatever their spelling', () => {
    for (const url of ['https://0x7f.0.0.1/', 'https://0177.0.0.1/', 'https://127.1/', 'https://[::ffff:7f00:1]/', 'https://[64:ff9b::a9fe:a9fe]/', 'https://0.0.0.0/']) {
      expect(unsafeProviderUrl(url), url).toBeDefined();
    }
    for (const url of ['https://1.1.1.1/', 'https://[2606:4700:4700::1111]/', 'https://sso.example.com:8443/x']) {
      expect(unsafeProviderUrl(url), url).toBeUndefined();
    }
  });
});
