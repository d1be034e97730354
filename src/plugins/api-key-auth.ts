import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { AppError } from '../shared/errors.js';
import { sha256 } from '../shared/ids.js';
import { type MaybePromise, andThen, checkHook } from '../shared/maybe-async.js';
import type { AuthFailureThrottle } from './auth-failures.js';
import { type KeyPrincipal, type Permission, can } from '../shared/permissions.js';
import { routeOf } from '../shared/http/route-options.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The accepted API key; set on every Backoffice route before validation runs. */
    principal: KeyPrincipal;
  }
}

/** A cached key answers at once; the first use of a key waits for the database. */
export type Authenticate = (secret: string, secretHash: string) => MaybePromise<KeyPrincipal | null>;

/**
 * The last key a connection presented and its hash. A client sends the same key on every request
 * of a keep-alive connection, and the hash (the key cache's key) is a function of the key alone, so
 * it is computed once per connection and key rather than per request. Nothing about the key's
 * validity is kept here: each request still asks the key cache, where a revocation takes effect.
 * The key stays only as long as the connection that sent it, whose requests hold it anyway.
 */
const lastKeyOf = new WeakMap<object, { secret: string; hash: string }>();
const hashOf = (req: FastifyRequest, secret: string): string => {
  const socket = req.raw.socket;
  const last = lastKeyOf.get(socket);
  if (last?.secret === secret) return last.hash;
  const hash = sha256(secret);
  lastKeyOf.set(socket, { secret, hash });
  return hash;
};

function presentedKey(req: FastifyRequest): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return header;
  if (routeOf(req).config.apiKeyInQuery) {
    const value = (req.query as Record<string, unknown> | undefined)?.api_key;
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/**
 * Runs on onRequest, before the body is parsed or validated: an anonymous or unauthorised
 * caller learns nothing about the route's input rules. A route without a declared
 * permission is refused to everyone (and the Backoffice tree refuses to register it).
 */
export function apiKeyAuth(authenticate: Authenticate, failures: AuthFailureThrottle): onRequestHookHandler {
  const accepted = (principal: KeyPrincipal | null): KeyPrincipal => {
    if (!principal) throw new AppError(401, 'invalid_api_key', 'the API key is unknown, revoked or expired');
    return principal;
  };
  const principalOf = (req: FastifyRequest): MaybePromise<KeyPrincipal> => {
    const secret = presentedKey(req);
    if (!secret) throw new AppError(401, 'missing_api_key', 'the x-api-key header is required');
    return andThen(secret.length > 256 ? null : authenticate(secret, hashOf(req, secret)), accepted);
  };
  // A cached key is admitted without a promise (four were made per request).
  return checkHook((req) =>
    andThen(failures.guard(req.ip, principalOf, req), (principal) => {
      const permission: Permission | undefined = routeOf(req).config.permission;
      if (!permission || !can(principal.role, permission)) {
        throw new AppError(403, 'forbidden', `this key's role (${principal.role}) lacks the permission ${permission ?? 'for this route'}`);
      }
      req.principal = principal;
    }),
  );
}
