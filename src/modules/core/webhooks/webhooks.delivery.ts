import { createHmac, randomBytes } from 'node:crypto';
import { type LookupAddress, lookup as dnsLookup } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isPrivateAddress } from '../../../shared/addresses.js';

/** A new signing secret in the Standard Webhooks format: `whsec_` and base64 of 32 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** `webhook-signature`: `v1,` and base64 HMAC-SHA256 of `id.timestamp.body` under the secret's decoded bytes. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
const isLocalName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/**
 * Why a webhook URL may not be a target, or undefined: http only where private targets are
 * allowed; no localhost, and no name resolving (now) to a private, loopback or link-local
 * address. Delivery checks the address again when it connects (a name may change its answer).
 */
export async function unsafeWebhookUrl(value: string, allowPrivate: boolean): Promise<string | undefined> {
  if (allowPrivate) return undefined;
  const url = new URL(value);
  if (url.protocol !== 'https:') return 'must be an https URL';
  const host = hostOf(url);
  if (isLocalName(host)) return 'must not point at localhost';
  const addresses = isIP(host) ? [host] : await resolveAll(host).catch(() => []);
  if (addresses.some(isPrivateAddress)) return 'must not point at a loopback, private or link-local address';
  return undefined;
}

const resolveAll = (host: string) =>
  new Promise<string[]>((resolve, reject) =>
    dnsLookup(host, { all: true }, (err, found: LookupAddress[]) => (err ? reject(err) : resolve(found.map((a) => a.address)))),
  );

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

type LookupFn = NonNullable<Parameters<typeof httpRequest>[1]>['lookup'];

/**
 * The address the socket connects to is checked, not the one a check resolved earlier: a name
 * that answers a public address at creation and a private one later (DNS rebinding) is refused here.
 */
const guardedLookup: LookupFn = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, found: LookupAddress[]) => {
    if (err) return (callback as (e: Error | null, a: LookupAddress[]) => void)(err, []);
    if (found.some((a) => isPrivateAddress(a.address))) {
      return (callback as (e: Error | null, a: LookupAddress[]) => void)(new Error('target resolves to a private address'), []);
    }
    if (options.all) return (callback as (e: Error | null, a: LookupAddress[]) => void)(null, found);
    const first = found[0]!;
    (callback as (e: Error | null, a: string, f: number) => void)(null, first.address, first.family);
  });
};

/**
 * One POST of a signed body: 10 s for the whole exchange, redirects not followed (a 3xx is a
 * failure), the answer's body read and dropped. Never throws: the outcome is the attempt's log.
 */
export function sendWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: { allowPrivate: boolean; timeoutMs?: number },
): Promise<SendResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): SendResult => ({
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return resolve(done(null, 'invalid url'));
    }
    const host = hostOf(url);
    if (!options.allowPrivate && (url.protocol !== 'https:' || isLocalName(host) || (isIP(host) && isPrivateAddress(host)))) {
      return resolve(done(null, 'target refused: not a public https address'));
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'media-publishing-service-webhooks', ...headers, 'content-length': String(Buffer.byteLength(body)) },
        ...(!options.allowPrivate && { lookup: guardedLookup }),
        timeout: options.timeoutMs ?? 10_000,
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          resolve(done(code, code >= 200 && code < 300 ? null : `receiver answered ${code}`));
        });
        res.on('error', (err) => resolve(done(res.statusCode ?? null, err.message)));
      },
    );
    const timer = setTimeout(() => req.destroy(new Error('timed out after 10 s')), options.timeoutMs ?? 10_000);
    req.on('close', () => clearTimeout(timer));
    req.on('timeout', () => req.destroy(new Error('timed out after 10 s')));
    req.on('error', (err) => resolve(done(null, err.message)));
    req.end(body);
  });
}
