import { z } from 'zod';

/**
 * Who may read a content's body: one decision, a pure function of the content, the reader, their
 * entitlements, their meter and the instant, used by every channel that serves a content (Reader
 * reads, lists and searches, question results and votes, RSS, sitemaps, the Public API, preview).
 * A content not granted is served as its teaser: everything but its blocks.
 */

export const VISIBILITIES = ['public', 'registered', 'subscribers'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export type AccessVia = 'public' | 'registered' | 'entitlement' | 'meter' | 'preview';
export type AccessReason = 'login_required' | 'subscription_required' | 'meter_exhausted';

/** A reader's entitlement as the decision reads it. */
export interface EntitlementWindow {
  productKey: string;
  startsAt: Date;
  endsAt: Date | null;
  revokedAt: Date | null;
}

/** The media's meter: `limit` distinct subscriber contents per `periodDays` (limit 0: off). */
export interface MeterRule {
  limit: number;
  periodDays: number;
}

/** A reader's meter in the current period: how many contents it opened, and whether this one is among them. */
export interface MeterState {
  used: number;
  /** This content was opened by the meter in this period already: opening it again costs nothing. */
  opened: boolean;
  resetsAt: Date;
}

export interface AccessInput {
  content: { visibility: Visibility; productKeys: readonly string[] };
  /** null: an application's token (client credentials) or no token; else the signed-in reader. */
  reader: { id: string } | null;
  entitlements: readonly EntitlementWindow[];
  meter: { rule: MeterRule; state: MeterState | null };
  at: Date;
  /** A preview token opened this content. */
  preview?: boolean;
}

export interface MeterWire {
  used: number;
  limit: number;
  resets_at: string;
}

export interface Access {
  granted: boolean;
  visibility: Visibility;
  via: AccessVia | null;
  reason: AccessReason | null;
  meter: MeterWire | null;
}

/** Whether an entitlement is active at `at`: started, not ended, not revoked. */
export const activeAt = (e: EntitlementWindow, at: Date) =>
  e.revokedAt === null && e.startsAt.getTime() <= at.getTime() && (e.endsAt === null || e.endsAt.getTime() > at.getTime());

/** An active entitlement opens a subscriber content when it names one of its products, or any product when it names none. */
export const entitledTo = (content: AccessInput['content'], entitlements: readonly EntitlementWindow[], at: Date) =>
  entitlements.some((e) => activeAt(e, at) && (content.productKeys.length === 0 || content.productKeys.includes(e.productKey)));

const meterWire = (rule: MeterRule, state: MeterState | null, used: number): MeterWire | null =>
  rule.limit > 0 && state ? { used, limit: rule.limit, resets_at: state.resetsAt.toISOString() } : null;

/**
 * The decision. A meter grant here means "a slot is free or this content holds one": the caller
 * records the open atomically (`meter.open`), and a lost race is a `meter_exhausted` then.
 */
export function decideAccess(input: AccessInput): Access {
  const { content, reader, meter } = input;
  const visibility = content.visibility;
  const granted = (via: AccessVia, meterOut: MeterWire | null = null): Access => ({ granted: true, visibility, via, reason: null, meter: meterOut });
  const refused = (reason: AccessReason, meterOut: MeterWire | null = null): Access => ({ granted: false, visibility, via: null, reason, meter: meterOut });

  if (input.preview) return granted('preview');
  if (visibility === 'public') return granted('public');
  if (!reader) return refused('login_required');
  if (visibility === 'registered') return granted('registered');
  if (entitledTo(content, input.entitlements, input.at)) return granted('entitlement');
  const { rule, state } = meter;
  if (rule.limit <= 0 || !state) return refused('subscription_required');
  if (state.opened) return granted('meter', meterWire(rule, state, state.used));
  if (state.used < rule.limit) return granted('meter', meterWire(rule, state, state.used + 1));
  return refused('meter_exhausted', meterWire(rule, state, state.used));
}

export const visibilitySchema = z
  .enum(VISIBILITIES)
  .describe('Who may read the body: `public` anyone, `registered` a signed-in reader, `subscribers` a reader entitled to one of `product_keys` (or the meter)');

export const productKeysSchema = z
  .array(z.string().trim().min(1).max(100))
  .max(50)
  .describe('For `subscribers`: the products whose entitlement opens the content (any one); empty: any active entitlement');

export const accessSchema = z
  .object({
    granted: z.boolean(),
    visibility: visibilitySchema,
    via: z.enum(['public', 'registered', 'entitlement', 'meter', 'preview']).nullable(),
    reason: z.enum(['login_required', 'subscription_required', 'meter_exhausted']).nullable(),
    meter: z.object({ used: z.int(), limit: z.int(), resets_at: z.string() }).nullable(),
  })
  .meta({ id: 'ContentAccess' });
