import { iso } from '../../../shared/time.js';
import type { NewsletterRow } from './newsletters.repository.js';

const STATES = ['queued', 'sending', 'sent', 'delivered', 'bounced', 'complained', 'failed', 'cancelled', 'not_sent'] as const;

export type NewsletterWithCounts = NewsletterRow & { counts: Record<string, number> };

export const toNewsletter = (row: NewsletterWithCounts) => {
  const recipients = Object.fromEntries(STATES.map((s) => [s, row.counts[s] ?? 0])) as Record<(typeof STATES)[number], number>;
  const total = STATES.reduce((sum, s) => sum + recipients[s], 0);
  return {
    id: row.id,
    mailing_list_id: row.mailingListId,
    content_id: row.contentId,
    locale: row.locale,
    subject: row.subject,
    status: recipients.queued + recipients.sending > 0 ? ('sending' as const) : ('done' as const),
    recipients: { total, ...recipients },
    inserted_at: iso(row.insertedAt),
    updated_at: iso(row.updatedAt),
  };
};
