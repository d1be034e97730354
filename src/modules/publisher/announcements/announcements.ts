import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { aggregate, part } from '../../../shared/aggregate.js';
import { richHtml } from '../../../shared/html.js';
import { recordSchemas } from '../../../shared/record/index.js';
import { isoTimestamp, timestampInput, uuid } from '../../../shared/schemas.js';
import { type PublisherRecord, publisherRecord, reference } from '../publisher.collection.js';
import { publisherErrors } from '../publisher.errors.js';
import { announcementLocales, announcements } from './announcements.table.js';

export const announcementAggregate = aggregate(announcements, {
  owner: announcements.mediaId,
  conflict: publisherErrors.announcement.conflict,
  // Readers see an announcement inside its display window; an open end is no limit.
  views: {
    current: sql`(${announcements.startsAt} is null or ${announcements.startsAt} <= now()) and (${announcements.endsAt} is null or ${announcements.endsAt} > now())`,
  },
  parts: {
    locales: part(announcementLocales, {
      parent: announcementLocales.recordId,
      match: ['locale'],
      columns: ['id', 'locale', 'title', 'bodyHtml', 'bodyText', 'deletedAt'],
    }),
  },
});

const time = (v: unknown) => (v instanceof Date ? v.getTime() : typeof v === 'string' ? Date.parse(v) : null);
/** The window's end after its start, when both are set. */
const windowOk = (startsAt: unknown, endsAt: unknown) => {
  const [s, e] = [time(startsAt), time(endsAt)];
  return s === null || e === null || e > s;
};

export const announcementsCollection = {
  agg: announcementAggregate,
  schemas: recordSchemas('Announcement', {
    fields: { organization_id: uuid.nullable(), starts_at: isoTimestamp.nullable(), ends_at: isoTimestamp.nullable(), link_url: z.string().nullable() },
    input: {
      organization_id: uuid.nullable().optional().describe('A live organization of the media, or null'),
      starts_at: timestampInput.nullable().optional().describe('Shown from then (null: already)'),
      ends_at: timestampInput.nullable().optional().describe('Shown until then (null: no end)'),
      link_url: z.url({ protocol: /^https?$/ }).max(2000).nullable().optional(),
    },
    locale: { title: z.string(), body_html: z.string().nullable(), body_text: z.string().nullable() },
    localeInput: { title: z.string().trim().min(1).max(300), body_html: richHtml().nullable().optional() },
    createRule: { check: (b) => windowOk(b.starts_at, b.ends_at), message: 'must be after starts_at', path: 'ends_at' },
  }),
  ...publisherRecord('/announcements', 'announcement', 'announcements', publisherErrors.announcement),
  notes: { create: 'Readers see it between starts_at and ends_at (either open); ends_at must come after starts_at.' },
  references: [reference('organizations')],
  checkUpdate: (current, patch) => {
    const startsAt = patch.starts_at !== undefined ? patch.starts_at : current.startsAt;
    const endsAt = patch.ends_at !== undefined ? patch.ends_at : current.endsAt;
    if (!windowOk(startsAt, endsAt)) throw publisherErrors.invalidWindow('ends_at');
  },
  revisions: { keys: { locales: 'locale' } },
  reader: { path: '/announcements', view: 'current', list: 'Announcements inside their display window, newest first.' },
} satisfies PublisherRecord;
