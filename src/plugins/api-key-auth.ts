import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { AppError } from '../shared/errors.js';
import type { AuthFailureThrottle } from './auth-failures.js';
import { type KeyPrincipal, type Permission, can } from '../shared/permissions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The accepted API key; set on every Backoffice route before validation runs. */
    principal: KeyPrincipal;
  }
}

/** A cached key answers at once; the first use of a key waits for the database. */
export type Authenticate = (secret: string) => KeyPrincipal | null | Promise<KeyPrincipal | null>;

function presentedKey(req: FastifyRequest): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return header;
  if (req.routeOptions.config.apiKeyInQuery) {
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
  const principalOf = (req: FastifyRequest): KeyPrincipal | Promise<KeyPrincipal> => {
    const secret = presentedKey(req);
    if (!secret) throw new AppError(401, 'missing_api_key', 'the x-api-key header is required');
    const principal = secret.length > 256 ? null : authenticate(secret);
    return principal instanceof Promise ? principal.then(accepted) : accepted(principal);
  };
  const admit = (req: FastifyRequest, principal: KeyPrincipal) => {
    const permission: Permission | undefined = req.routeOptions.config.permission;
    if (!permission || !can(principal.role, permission)) {
      throw new AppError(403, 'forbidden', `this key's role (${principal.role}) lacks the permission ${permission ?? 'for this route'}`);
    }
    req.principal = principal;
  };
  // A callback hook: a cached key is admitted without a promise (four were made per request).
  return (req, _reply, done) => {
    let principal: KeyPrincipal | Promise<KeyPrincipal>;
    try {
      principal = failures.guard(req.ip, principalOf, req);
      if (!(principal instanceof Promise)) {
        admit(req, principal);
        return done();
      }
    } catch (err) {
      return done(err as Error);
    }
    principal.then((p) => {
      try {
        admit(req, p);
      } catch (err) {
        return done(err as Error);
      }
      done();
    }, done);
  };
}
