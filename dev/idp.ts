/**
 * npm run dev:idp: a local OpenID provider, so that Reader routes can be tried without an
 * outside account (README, "Trying the Reader with a development identity provider").
 * Any login name is a reader (`alice` is alice@example.test); any password passes.
 *
 * Besides the provider's own endpoints it serves:
 *   GET /dev/registration    the body for POST /core/v2/oauth/providers
 *   GET /dev/start           a browser sign-in: redirects to the authorization endpoint
 *   GET /callback            where the reader comes back: shows the code and how to exchange it
 *   GET /dev/sign-in?login=  the same sign-in without a browser: {code, redirect_uri}
 *
 * IDP_PORT (default 4000) and IDP_HOST (127.0.0.1) choose the address; SERVICE_URL
 * (http://127.0.0.1:3000) is the service the callback page's command calls.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DevOidcProvider, startDevOidcProvider } from './oidc-provider.js';

const port = Number(process.env.IDP_PORT ?? 4000);
const host = process.env.IDP_HOST ?? '127.0.0.1';
const serviceUrl = (process.env.SERVICE_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('IDP_PORT must be a port number (0: any free port)');
  process.exit(1);
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(`${JSON.stringify(body, null, 2)}\n`);

/** The token request the README's shell variables complete. */
const exchange = (idp: DevOidcProvider, code: string) =>
  `curl -s -X POST ${serviceUrl}/api/media/v1/oauth/token -d grant_type=authorization_code \\\n` +
  `  -d code=${code} -d redirect_uri=${idp.redirectUri} \\\n` +
  '  -d "client_id=$CLIENT_ID" -d "oauth_provider_id=$PROVIDER_ID"';

let idp: DevOidcProvider;

async function pages(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const url = new URL(req.url ?? '/', idp.issuer);
  if (req.method !== 'GET') return false;
  switch (url.pathname) {
    case '/dev/registration':
      json(res, 200, idp.registration);
      return true;
    case '/dev/start':
      res.writeHead(302, { location: idp.authorizationUrl() }).end();
      return true;
    case '/dev/sign-in': {
      const login = url.searchParams.get('login') ?? 'reader';
      try {
        const { code } = await idp.authorize(login);
        json(res, 200, { code, redirect_uri: idp.redirectUri, login });
      } catch (err) {
        json(res, 500, { error: err instanceof Error ? err.message : String(err) });
      }
      return true;
    }
    case '/callback': {
      const code = url.searchParams.get('code');
      const error = url.searchParams.get('error');
      const body = code
        ? `<p>Signed in. The authorization code (valid for a minute, once):</p><pre>${escapeHtml(code)}</pre>
           <p>Exchange it at the service:</p><pre>${escapeHtml(exchange(idp, code))}</pre>`
        : `<p>The provider answered ${escapeHtml(error ?? 'nothing')}: ${escapeHtml(url.searchParams.get('error_description') ?? '')}</p>`;
      res
        .writeHead(code ? 200 : 400, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><meta charset="utf-8"><title>Development identity provider</title>${body}`);
      return true;
    }
    default:
      return false;
  }
}

try {
  idp = await startDevOidcProvider({ port, host, redirectUri: (issuer) => `${issuer}/callback`, extraRoutes: pages });
} catch (err) {
  console.error(`dev:idp could not listen on ${host}:${port}: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

process.stdout.write(
  [
    `Development OpenID provider at ${idp.issuer} (any login name, any password)`,
    `  register it:    curl -s ${idp.issuer}/dev/registration | curl -s ${serviceUrl}/core/v2/oauth/providers \\`,
    `                    -H "x-api-key: $KEY" -H 'content-type: application/json' -d @-`,
    '                  (the service needs OAUTH_ALLOW_INSECURE_PROVIDERS=true for a provider on http://127.0.0.1)',
    `  sign in:        open ${idp.issuer}/dev/start in a browser, or curl -s "${idp.issuer}/dev/sign-in?login=reader"`,
    `  redirect_uri:   ${idp.redirectUri}`,
    '',
  ].join('\n'),
);

const stop = () => {
  void idp.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
