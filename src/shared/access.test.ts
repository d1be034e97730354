import { describe, expect, it } from 'vitest';
import { type AccessInput, type EntitlementWindow, decideAccess } from './access.js';

const at = new Date('2026-06-15T12:00:00Z');
const resetsAt = new Date('2026-06-30T00:00:00Z');
const day = 86_400_000;
const ent = (productKey: string, over: Partial<EntitlementWindow> = {}): EntitlementWindow => ({
  productKey,
  startsAt: new Date(at.getTime() - day),
  endsAt: null,
  revokedAt: null,
  ...over,
});

type Who = 'anonymous' | 'reader';
type Ents = 'none' | 'gold' | 'silver' | 'expired gold' | 'future gold' | 'revoked gold';
type Meter = 'off' | '0 of 3' | '2 of 3' | '3 of 3' | '3 of 3, this one';
type Visibility = AccessInput['content']['visibility'];

const entitlements: Record<Ents, EntitlementWindow[]> = {
  none: [],
  gold: [ent('gold')],
  silver: [ent('silver')],
  'expired gold': [ent('gold', { startsAt: new Date(at.getTime() - 30 * day), endsAt: new Date(at.getTime() - day) })],
  'future gold': [ent('gold', { startsAt: new Date(at.getTime() + day) })],
  'revoked gold': [ent('gold', { revokedAt: new Date(at.getTime() - day) })],
};
const meters: Record<Meter, AccessInput['meter']> = {
  off: { rule: { limit: 0, periodDays: 30 }, state: null },
  '0 of 3': { rule: { limit: 3, periodDays: 30 }, state: { used: 0, opened: false, resetsAt } },
  '2 of 3': { rule: { limit: 3, periodDays: 30 }, state: { used: 2, opened: false, resetsAt } },
  '3 of 3': { rule: { limit: 3, periodDays: 30 }, state: { used: 3, opened: false, resetsAt } },
  '3 of 3, this one': { rule: { limit: 3, periodDays: 30 }, state: { used: 3, opened: true, resetsAt } },
};

const decide = (visibility: Visibility, productKeys: string[], who: Who, ents: Ents, meter: Meter, preview = false) =>
  decideAccess({
    content: { visibility, productKeys },
    reader: who === 'reader' ? { id: 'r1' } : null,
    entitlements: entitlements[ents],
    meter: meters[meter],
    at,
    preview,
  });

// visibility, product keys, who, entitlements, meter → granted via / refused reason, meter used after
const table: Array<[Visibility, string[], Who, Ents, Meter, string, number | null]> = [
  ['public', [], 'anonymous', 'none', 'off', 'public', null],
  ['public', ['gold'], 'reader', 'none', '3 of 3', 'public', null],
  ['registered', [], 'anonymous', 'none', 'off', 'login_required', null],
  ['registered', [], 'anonymous', 'gold', '0 of 3', 'login_required', null],
  ['registered', [], 'reader', 'none', 'off', 'registered', null],
  ['subscribers', ['gold'], 'anonymous', 'gold', '0 of 3', 'login_required', null],
  ['subscribers', ['gold'], 'reader', 'none', 'off', 'subscription_required', null],
  ['subscribers', ['gold'], 'reader', 'gold', 'off', 'entitlement', null],
  ['subscribers', ['gold'], 'reader', 'gold', '3 of 3', 'entitlement', null],
  ['subscribers', ['gold', 'silver'], 'reader', 'silver', 'off', 'entitlement', null],
  ['subscribers', ['gold'], 'reader', 'silver', 'off', 'subscription_required', null],
  ['subscribers', [], 'reader', 'silver', 'off', 'entitlement', null],
  ['subscribers', [], 'reader', 'none', 'off', 'subscription_required', null],
  ['subscribers', ['gold'], 'reader', 'expired gold', 'off', 'subscription_required', null],
  ['subscribers', ['gold'], 'reader', 'future gold', 'off', 'subscription_required', null],
  ['subscribers', ['gold'], 'reader', 'revoked gold', 'off', 'subscription_required', null],
  ['subscribers', ['gold'], 'reader', 'none', '0 of 3', 'meter', 1],
  ['subscribers', ['gold'], 'reader', 'silver', '2 of 3', 'meter', 3],
  ['subscribers', ['gold'], 'reader', 'expired gold', '3 of 3', 'meter_exhausted', 3],
  ['subscribers', ['gold'], 'reader', 'none', '3 of 3, this one', 'meter', 3],
];

describe('the access decision', () => {
  it.each(table)('%s %j to %s with %s entitlements, meter %s: %s', (visibility, keys, who, ents, meter, outcome, used) => {
    const access = decide(visibility, keys, who, ents, meter);
    const granted = ['public', 'registered', 'entitlement', 'meter', 'preview'].includes(outcome);
    expect(access).toEqual({
      granted,
      visibility,
      via: granted ? outcome : null,
      reason: granted ? null : outcome,
      meter: used === null ? null : { used, limit: 3, resets_at: resetsAt.toISOString() },
    });
  });

  it('grants a preview whatever the visibility and whoever asks', () => {
    for (const visibility of ['public', 'registered', 'subscribers'] as const) {
      expect(decide(visibility, ['gold'], 'anonymous', 'none', '3 of 3', true)).toEqual({ granted: true, visibility, via: 'preview', reason: null, meter: null });
    }
  });

  it('counts an entitlement that ends at the instant as ended, and one that starts at it as started', () => {
    const ends = decideAccess({ content: { visibility: 'subscribers', productKeys: [] }, reader: { id: 'r' }, entitlements: [ent('x', { endsAt: at })], meter: meters.off, at });
    expect(ends.reason).toBe('subscription_required');
    const starts = decideAccess({ content: { visibility: 'subscribers', productKeys: [] }, reader: { id: 'r' }, entitlements: [ent('x', { startsAt: at })], meter: meters.off, at });
    expect(starts.via).toBe('entitlement');
  });
});
