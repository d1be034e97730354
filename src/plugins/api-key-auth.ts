import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { AppError } from '../shared/errors.js';
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
export type Authenticate = (secret: string) => MaybePromise<KeyPrincipal | null>;

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
    return andThen(secret.length > 256 ? null : authenticate(secret), accepted);
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
