const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Plain text into HTML text (and attribute values). */
export const esc = (value: string): string => value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** A minimal, inline-styled HTML mail around a body already made safe. */
export const layout = (title: string, bodyHtml: string, footerHtml = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title></head>` +
  `<body style="font-family:Georgia,serif;max-width:640px;margin:auto;padding:16px">${bodyHtml}` +
  (footerHtml ? `<hr><footer style="font-size:12px;color:#666">${footerHtml}</footer>` : '') +
  `</body></html>`;

/** The links a mail carries: the media's front end (confirm page) and the one-click unsubscribe endpoint. */
export function mailLinks(publicBaseUrl: string) {
  return {
    confirm: (token: string) => `${publicBaseUrl}/newsletter/confirm?token=${encodeURIComponent(token)}`,
    unsubscribe: (token: string) => `${publicBaseUrl}/api/media/v1/newsletter/unsubscribe?token=${encodeURIComponent(token)}`,
  };
}
export type MailLinks = ReturnType<typeof mailLinks>;
