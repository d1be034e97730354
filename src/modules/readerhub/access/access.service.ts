import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import {
  type Access,
  type AccessInput,
  type EntitlementWindow,
  type MeterRule,
  type MeterState,
  type Visibility,
  decideAccess,
  entitledTo,
} from '../../../shared/access.js';
import { type RequestContext, transaction } from '../../../shared/context.js';
import type { ReaderPrincipal } from '../../../shared/scopes.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import { readers } from '../accounts/accounts.table.js';
import { readerEntitlements } from '../entitlements/entitlements.table.js';
import { readerMeterOpens } from './access.table.js';

const DAY = 86_400_000;

/** The period an instant falls in, and when it ends. */
export const periodOf = (rule: MeterRule, at: Date) => {
  const period = Math.floor(at.getTime() / (rule.periodDays * DAY));
  return { period, resetsAt: new Date((period + 1) * rule.periodDays * DAY) };
};

/** What the decision needs of a content. */
export interface GatedContent {
  id: string;
  visibility: Visibility;
  productKeys: readonly string[];
}

/** Who reads: the signed-in reader's account, or null for an application (client credentials) or no token. */
export interface Reader {
  id: string;
  entitlements: EntitlementWindow[];
}

/**
 * Reader access (shared/access.ts decides; this reads and writes what it decides on): the reader
 * behind a Reader request, their entitlements, and the meter, counted in PostgreSQL.
 */
export function createAccessService(deps: { accounts: AccountsService }) {
  const entitlementsOf = async (executor: Executor, mediaId: string, readerId: string): Promise<EntitlementWindow[]> =>
    executor
      .select({
        productKey: readerEntitlements.productKey,
        startsAt: readerEntitlements.startsAt,
        endsAt: readerEntitlements.endsAt,
        revokedAt: readerEntitlements.revokedAt,
      })
      .from(readerEntitlements)
      .where(and(eq(readerEntitlements.mediaId, mediaId), eq(readerEntitlements.readerId, readerId), isNull(readerEntitlements.revokedAt)));

  /** The meter of a reader in the period `at` falls in: opens counted, and whether `contentId` is one. */
  const meterState = async (executor: Executor, readerId: string, contentId: string, rule: MeterRule, at: Date): Promise<MeterState> => {
    const { period, resetsAt } = periodOf(rule, at);
    const [row] = await executor
      .select({ used: count(), opened: sql<boolean>`coalesce(bool_or(${readerMeterOpens.contentId} = ${contentId}), false)` })
      .from(readerMeterOpens)
      .where(and(eq(readerMeterOpens.readerId, readerId), eq(readerMeterOpens.period, period)));
    return { used: Number(row?.used ?? 0), opened: row?.opened ?? false, resetsAt };
  };

  return {
    /**
     * The reader a request's token names: an authorization-code token is a reader (their account
     * linked or created on first use, with their entitlements); a client-credentials token is none.
     */
    async readerOf(ctx: RequestContext): Promise<Reader | null> {
      const principal = ctx.principal as ReaderPrincipal | null;
      if (!principal || principal.kind !== 'reader') return null;
      const account = await deps.accounts.ensure(ctx);
      return { id: account.id, entitlements: await entitlementsOf(ctx.db, ctx.mediaId, account.id) };
    },

    /**
     * The decision for one content opened by `reader` at `at`, the meter's open recorded when it
     * grants through the meter: under the reader's row lock, so that concurrent opens of different
     * contents never exceed the limit (a lost race is `meter_exhausted`). Re-opening costs nothing.
     */
    async open(ctx: RequestContext, content: GatedContent, reader: Reader | null, rule: MeterRule, at: Date, preview = false): Promise<Access> {
      const input: AccessInput = {
        content,
        reader,
        entitlements: reader?.entitlements ?? [],
        meter: { rule, state: null },
        at,
        preview,
      };
      const metered = !preview && reader && content.visibility === 'subscribers' && rule.limit > 0 && !entitledTo(content, input.entitlements, at);
      if (!metered) return decideAccess(input);
      return transaction(ctx, async (tx) => {
        await tx.select({ id: readers.id }).from(readers).where(eq(readers.id, reader.id)).for('update');
        const state = await meterState(tx, reader.id, content.id, rule, at);
        const access = decideAccess({ ...input, meter: { rule, state } });
        if (access.via === 'meter' && !state.opened) {
          await tx.insert(readerMeterOpens).values({ mediaId: ctx.mediaId, readerId: reader.id, period: periodOf(rule, at).period, contentId: content.id });
        }
        return access;
      });
    },
  };
}

export type AccessService = ReturnType<typeof createAccessService>;
