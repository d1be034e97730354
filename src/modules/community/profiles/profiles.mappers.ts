import { type BlockRow, type ImageUrl, toWireBlock } from '../../../shared/blocks.js';
import { type ReaderView, pickLocale } from '../../../shared/http/reader.js';
import { wireOf } from '../../../shared/record/index.js';
import { iso, isoOrNull, stamped } from '../../../shared/time.js';
import type { ProfileDeclaration } from './profiles.record.js';
import type { ProfileSummary, ProfileTree } from './profiles.repository.js';
import { ADDRESS_FIELDS, CONTACT_FIELDS } from './profiles.schemas.js';

type Part = Record<string, unknown> & { allowed: Record<string, boolean> | null };

/** The fields of a contact or address entry its profile type allows; the others are left out. */
const allowedFields = (entry: Part, fields: readonly string[]) =>
  Object.fromEntries(fields.filter((f) => entry.allowed?.[f]).map((f) => [f, (entry[f] as string | null) ?? null]));

/** A kind's own fields (its columns of the profile row) on the wire. */
const ownFields = (d: ProfileDeclaration, row: object) => wireOf(row, d.own) as Record<string, unknown>;

/** The mappers of profiles, over the delivery url of images. */
export function profileMappers(urlOf: ImageUrl) {
  const imageUrl = (key: string | null) => (key ? urlOf(key) : null);

  /** Backoffice view (spec 2.13), with the kind's own fields. */
  const toBackoffice = (d: ProfileDeclaration) => (row: ProfileTree) => stamped({
    id: row.id,
    ...ownFields(d, row),
    cover_image_key: row.coverImageKey,
    profile_image_key: row.profileImageKey,
    profile: {
      id: row.id,
      workspace_id: row.workspaceId,
      profile_type_id: row.profileTypeId,
      status_id: row.statusId,
      profile_categories: row.categories.map((c) => ({ id: c.id, category_id: c.categoryId })),
      canonical_url: row.canonicalUrl,
    },
    description: row.description.map((d) => ({
      id: d.id,
      locale: d.locale,
      blocks: d.blocks.map((b) => toWireBlock(b as unknown as BlockRow, urlOf)),
      deleted_at: isoOrNull(d.deletedAt),
    })),
    address: row.address.map((a) => ({ id: a.id, locale: a.locale, deleted_at: isoOrNull(a.deletedAt), ...allowedFields(a as unknown as Part, ADDRESS_FIELDS) })),
    contact: row.contact.map((c) => ({ id: c.id, locale: c.locale, deleted_at: isoOrNull(c.deletedAt), ...allowedFields(c as unknown as Part, CONTACT_FIELDS) })),
    locales: row.locales.map((l) => ({
      id: l.id,
      locale: l.locale,
      summary_html: l.summaryHtml,
      summary_text: l.summaryText,
      description_html: l.descriptionHtml,
      description_text: l.descriptionText,
      deleted_at: isoOrNull(l.deletedAt),
    })),
  }, row);

  /** Reader list item (spec 2.3 for a person): one language, contact in its own language. */
  const toReaderItem = (d: ProfileDeclaration) => (row: ProfileSummary, view: ReaderView<'categories' | 'profile_types'>) => {
    view.collect.categories?.(row.categories.map((c) => c.categoryId));
    view.collect.profile_types?.([row.profileTypeId]);
    const text = pickLocale(row.locales, view.locale, view.fallback);
    const contact = pickLocale(row.contact, view.locale, view.fallback);
    return {
      id: row.id,
      profile_type_id: row.profileTypeId,
      kind: row.kind,
      ...ownFields(d, row),
      summary_html: text.entry?.summaryHtml ?? null,
      summary_text: text.entry?.summaryText ?? null,
      canonical_url: row.canonicalUrl,
      canonical_domain: row.canonicalDomain,
      profile_image_url: imageUrl(row.profileImageKey),
      cover_image_url: imageUrl(row.coverImageKey),
      contact: contact.entry ? { meta: { locales: contact.meta }, ...allowedFields(contact.entry as unknown as Part, CONTACT_FIELDS) } : null,
      category_ids: row.categories.map((c) => c.categoryId),
      metadata: row.metadata.map((m) => ({ key: m.key, value: m.value })),
      meta: { locales: text.meta },
      updated_at: iso(row.updatedAt),
    };
  };

  /** Reader by id: the item plus the description's blocks, address and profile blocks, in one language. */
  const toReaderRecord = (d: ProfileDeclaration) => {
    const item = toReaderItem(d);
    return (row: ProfileTree, view: ReaderView<'categories' | 'profile_types'>) => {
      const description = pickLocale(row.description, view.locale, view.fallback);
      const address = pickLocale(row.address, view.locale, view.fallback);
      const text = pickLocale(row.locales, view.locale, view.fallback);
      const lang = text.meta.current;
      return {
        ...item(row as unknown as ProfileSummary, view),
        description_blocks: (description.entry?.blocks ?? []).map((b) => toWireBlock(b as unknown as BlockRow, urlOf)),
        description_html: text.entry?.descriptionHtml ?? null,
        address: address.entry ? { meta: { locales: address.meta }, ...allowedFields(address.entry as unknown as Part, ADDRESS_FIELDS) } : null,
        blocks: row.blocks.map((b) => ({ id: b.id, key: b.key, position: b.position, title: titleIn(b.locales, lang) })),
      };
    };
  };

  return { toBackoffice, toReaderItem, toReaderRecord };
}

/** A block's title in the served language, else in its first language. */
export const titleIn = (locales: Array<{ locale: string; title: string }>, lang: string | null) =>
  (locales.find((l) => l.locale === lang) ?? locales[0])?.title ?? null;

export const toProfileBlock = (b: ProfileTree['blocks'][number]) => ({
  id: b.id,
  key: b.key,
  position: b.position,
  locales: b.locales.map((l) => ({ locale: l.locale, title: l.title })),
});

export const toBlockEntry = (e: ProfileTree['blocks'][number]['entries'][number]) => ({ id: e.id, content_id: e.contentId, relation_id: e.relationId });

export const toSchedule = (s: ProfileTree['schedules'][number]) => ({
  id: s.id,
  kind: s.kind as 'slot' | 'recurrence',
  position: s.position,
  starts_at: isoOrNull(s.startsAt),
  ends_at: isoOrNull(s.endsAt),
  starts_local: s.startsLocal,
  rrule: s.rrule,
  duration_minutes: s.durationMinutes,
});

export const toOccurrence = (o: { eventId: string; scheduleId: string; startsAt: Date; endsAt: Date }) => ({
  event_id: o.eventId,
  schedule_id: o.scheduleId,
  starts_at: o.startsAt.toISOString(),
  ends_at: o.endsAt.toISOString(),
});

export type ProfileMappers = ReturnType<typeof profileMappers>;
