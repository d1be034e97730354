import { createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a signed token is for: confirming a pending subscription, or leaving a list in one click. */
export type TokenPurpose = 'confirm' | 'unsubscribe';

export interface TokenClaims {
  purpose: TokenPurpose;
  subscriptionId: string;
  /** Seconds since the epoch. */
  expiresAt: number;
  /** A random id: the confirmation token still good is the one whose jti the subscription keeps. */
  jti: string;
}

/**
 * Signed, expiring tokens over the service secret `messenger_token_key`: base64url of the claims,
 * a dot, base64url of their HMAC-SHA256. Nothing in them is secret; everything is tamper-proof.
 */
export function createTokenSigner(secret: Buffer) {
  // A KeyObject made once: Node 24's createHmac given a Buffer throws and catches twice to learn it is not one.
  const key = createSecretKey(secret);
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest();
  return {
    sign(purpose: TokenPurpose, subscriptionId: string, ttlSeconds: number): { token: string; jti: string } {
      const jti = randomBytes(12).toString('base64url');
      const claims = [purpose, subscriptionId, Math.floor(Date.now() / 1000) + ttlSeconds, jti];
      const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
      return { token: `${payload}.${mac(payload).toString('base64url')}`, jti };
    },

    /** The claims of a well-signed, unexpired token of this purpose; undefined otherwise. */
    verify(token: string, purpose: TokenPurpose): TokenClaims | undefined {
      if (token.length > 512) return undefined;
      const [payload, signature, ...rest] = token.split('.');
      if (!payload || !signature || rest.length > 0) return undefined;
      const given = Buffer.from(signature, 'base64url');
      const wanted = mac(payload);
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return undefined;
      let claims: unknown;
      try {
        claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        return undefined;
      }
      if (!Array.isArray(claims) || claims.length !== 4) return undefined;
      const [p, subscriptionId, expiresAt, jti] = claims as [unknown, unknown, unknown, unknown];
      if (p !== purpose || typeof subscriptionId !== 'string' || typeof expiresAt !== 'number' || typeof jti !== 'string') return undefined;
      if (expiresAt * 1000 <= Date.now()) return undefined;
      return { purpose, subscriptionId, expiresAt, jti };
    },
  };
}

export type TokenSigner = ReturnType<typeof createTokenSigner>;
