import type { Executor } from '../../db/client.js';
import type { Revises } from '../revisions.js';

/**
 * What a route does beyond its answer, declared with the route (`route()`) or by the mechanism
 * that makes it (a record declaration, a resource): the record a Backoffice write changes (its
 * webhook event and audit entry), the read a conditional write is checked against (If-Match), the
 * kind of records a Reader or Public read answers (its Surrogate-Key), and whether a read must
 * see the primary database. Nothing here is read from the route's URL.
 */

/**
 * What a write may do to a record: the four of the rule below, and `corrected` (a public
 * correction note added to a content), which a route declares. Events are `<kind>.<action>`.
 */
export const RECORD_ACTIONS = ['created', 'updated', 'deleted', 'restored', 'corrected'] as const;
export type RecordAction = (typeof RECORD_ACTIONS)[number];

export interface RecordEffect {
  /** The record's kind on the wire: `category`, `media_block`; events are `<kind>.<action>`. */
  kind: string;
  /**
   * The action, when the rule does not give it: a DELETE deletes; a 201 answering one record
   * (`{data: {id}}`) created it; anything else updates the record the path names.
   */
  action?: RecordAction;
  /** The path parameter naming the record (`id` by default); a created record is the answer's. */
  param?: string;
  /** false: the write is audited but sends no webhook event (the webhooks' own routes). */
  webhooks?: false;
  /** The record whose revisions the write adds one to (shared/revisions.ts): this one, or the one it is a part of. */
  revises?: Revises;
}

/** A record row that can be locked for the rest of a transaction: false when there is none. */
export interface Lockable {
  lock(tx: Executor, id: string, ownerId: string): Promise<boolean>;
}

/**
 * Where a conditional write's version is read: the GET (by operationId) whose answer's ETag
 * If-Match names (its path parameters are the write's, by name), and the record whose row the
 * write holds while the version is compared, so that no other write slips in between.
 */
export interface VersionSource {
  read: string;
  /** The record locked by the write's `id` parameter (`param` to name another one). */
  lock?: Lockable;
  param?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A Backoffice write: the record it changes. */
    record?: RecordEffect;
    /** A Backoffice PUT, PATCH or DELETE: where If-Match's version is read. */
    version?: VersionSource;
    /** A Reader or Public read: the kind of the records it answers (Surrogate-Key); null for none. */
    serves?: string | null;
    /** A Reader or Public read that must see the primary database (a reader's own state, what decides access). */
    primary?: boolean;
    /** Set by the Reader and Public trees: the read may go to the replica (DATABASE_READ_URL). */
    replica?: boolean;
  }
}

/** The record a successful write changed, and how: from its declaration and its answer. */
export function writeEffect(
  effect: RecordEffect,
  write: { method: string; statusCode: number; params: Record<string, string>; answerId: string | undefined },
): { kind: string; action: RecordAction; id: string | undefined } {
  const created = write.statusCode === 201 && write.answerId !== undefined;
  const action = effect.action ?? (write.method === 'DELETE' ? 'deleted' : created ? 'created' : 'updated');
  const id = action === 'created' ? write.answerId : write.params[effect.param ?? 'id'];
  return { kind: effect.kind, action, id };
}
