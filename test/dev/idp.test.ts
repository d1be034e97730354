import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../setup/app.js';
import { type SeededMedia, client, seedMedia } from '../setup/factories.js';
import { readerClient, registerClient } from '../setup/reader.js';

// `npm run dev:idp` as a user starts it (its own process), and the README's flow with it:
// register the provider for the media, sign in, get a Reader token, call Reader routes.

let ctx: TestContext;
let media: SeededMedia;
let idp: ChildProcess;
let issuer: string;
let output = '';

beforeAll(async () => {
  idp = spawn(process.execPath, ['--import', 'tsx', 'dev/idp.ts'], {
    cwd: process.cwd(),
    env: { ...process.env, IDP_PORT: '0', SERVICE_URL: 'http://127.0.0.1:3999' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const banner = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`dev:idp did not start: ${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Development OpenID provider at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    idp.stdout!.on('data', read);
    idp.stderr!.on('data', read);
    idp.once('exit', (code) => reject(new Error(`dev:idp exited with ${code}: ${output}`)));
  });
  [ctx, issuer] = await Promise.all([createTestApp(), banner]);
  media = await seedMedia(ctx.app);
});
afterAll(async () => {
  if (idp && idp.exitCode === null) {
    const exited = new Promise((resolve) => idp.once('exit', resolve));
    idp.kill('SIGTERM');
    await exited;
  }
  await ctx?.close();
});

describe('npm run dev:idp', () => {
  it('prints how to register it and how to sign in', () => {
    expect(output).toContain(`curl -s ${issuer}/dev/registration | curl -s http://127.0.0.1:3999/core/v2/oauth/providers`);
    expect(output).toContain(`open ${issuer}/dev/start in a browser, or curl -s "${issuer}/dev/sign-in?login=reader"`);
    expect(output).toContain(`redirect_uri:   ${issuer}/callback`);
  });

  it('gives a reader a token that Reader routes accept, the way the README shows', async () => {
    const registration = (await (await fetch(`${issuer}/dev/registration`)).json()) as Record<string, unknown>;
    expect(registration).toMatchObject({ issuer, token_endpoint: `${issuer}/token`, redirect_uris: [`${issuer}/callback`] });
    const provider = await client(ctx.app, media.keys.admin).post('/core/v2/oauth/providers', registration);
    expect(provider.statusCode, provider.body).toBe(201);
    const providerId = provider.json().data.id as string;
    const front = await registerClient(ctx.app, media.keys.admin, ['media:read', 'account:read', 'account:write'], 'public');

    const signIn = await fetch(`${issuer}/dev/sign-in?login=reader`);
    expect(signIn.status).toBe(200);
    const { code, redirect_uri } = (await signIn.json()) as { code: string; redirect_uri: string };
    expect(redirect_uri).toBe(`${issuer}/callback`);

    const token = await ctx.app.inject({
      method: 'POST',
      url: '/api/media/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri,
        client_id: front.clientId,
        oauth_provider_id: providerId,
      }).toString(),
    });
    expect(token.statusCode, token.body).toBe(200);
    const { access_token, refresh_token, token_type } = token.json();
    expect(token_type).toBe('Bearer');
    expect(refresh_token).toEqual(expect.any(String));

    const reader = readerClient(ctx.app, media.mediaId, access_token);
    const verified = await reader.post('/api/media/v1/oauth/verify');
    expect(verified.statusCode).toBe(201);
    expect(verified.json().data).toMatchObject({ provider_id: providerId, sub: 'reader', email: 'reader@example.test', name: 'Reader reader' });
    const userinfo = await reader.get('/api/media/v1/oauth/userinfo');
    expect(userinfo.statusCode).toBe(200);
    expect(userinfo.json().data.scopes).toEqual(['media:read', 'account:read', 'account:write']);
  });

  it('starts a browser sign-in and shows the code with the command that exchanges it', async () => {
    const start = await fetch(`${issuer}/dev/start`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location')!);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${issuer}/auth`);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: 'media-publishing-service',
      response_type: 'code',
      redirect_uri: `${issuer}/callback`,
      scope: 'openid email profile offline_access',
    });

    const page = await fetch(`${issuer}/callback?code=abc<def&state=x`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('abc&lt;def');
    expect(html).not.toContain('abc<def');
    expect(html).toContain('curl -s -X POST http://127.0.0.1:3999/api/media/v1/oauth/token -d grant_type=authorization_code');
    expect(html).toContain(`-d redirect_uri=${issuer}/callback`);
    expect(html).toContain('-d &quot;client_id=$CLIENT_ID&quot; -d &quot;oauth_provider_id=$PROVIDER_ID&quot;');
  });
});
