import { hash } from 'node:crypto';

/** A UUID of any version, as text (for use inside larger patterns). */
export const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const UUID = new RegExp(`^${UUID_PATTERN}$`);

/** For ids that arrive outside a zod schema (headers, token parameters). */
export const isUuid = (value: string): boolean => UUID.test(value);

/**
 * SHA-256, hex: how API keys, client secrets and refresh tokens are stored. They carry 256
 * random bits, so a fast hash is enough: there is nothing to brute-force.
 */
export const sha256 = (value: string): string => hash('sha256', value, 'hex');
