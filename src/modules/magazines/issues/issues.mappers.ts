import type { ImageUrl } from '../../../shared/blocks.js';
import { toServedImage } from '../../../shared/blocks.js';
import { type ReaderView, pickLocale } from '../../../shared/http/reader.js';
import { iso, isoOrNull, stamped } from '../../../shared/time.js';
import type { BlockRecord, IssueLocaleRecord, IssueRecord, SectionContentRecord, SectionRecord, SlotRecord } from './issues.repository.js';
import type { ISSUE_VISUAL_TYPES } from './issues.schemas.js';

type View = Pick<ReaderView, 'locale' | 'fallback'>;

/** One mapper per view of the magazines records (Backoffice and Reader). */
export function issueMappers(urlOf: ImageUrl) {
  const toVisual = (l: IssueLocaleRecord) => ({
    type: l.visualType as (typeof ISSUE_VISUAL_TYPES)[number],
    image: l.visualType === 'image' && l.visualImage ? toServedImage(l.visualImage, urlOf) : null,
  });

  const toIssue = (row: IssueRecord) => stamped({
    id: row.id,
    workspace_id: row.workspaceId,
    issue_type_id: row.issueTypeId,
    kind: row.kind,
    color: row.color,
    pdf_file_key: row.pdfFileKey,
    advertising_key: row.advertisingKey,
    locales: row.locales.map((l) => ({
      id: l.id,
      name: l.name,
      locale: l.locale,
      visual: toVisual(l),
      deleted_at: isoOrNull(l.deletedAt),
      description_html: l.descriptionHtml,
      description_text: l.descriptionText,
    })),
  }, row);

  const toSection = (row: SectionRecord) => stamped({
    id: row.id,
    issue_id: row.issueId,
    key: row.key,
    position: row.position,
    locales: row.locales.map((l) => ({
      id: l.id,
      locale: l.locale,
      name: l.name,
      description_html: l.descriptionHtml,
      description_text: l.descriptionText,
      deleted_at: isoOrNull(l.deletedAt),
    })),
  }, row);

  const toSlot = (row: SlotRecord) => ({
    id: row.id,
    block_id: row.blockId,
    position: row.position,
    content_id: row.contentId,
    inserted_at: iso(row.insertedAt),
    updated_at: iso(row.updatedAt),
  });

  const toBlock = (row: Omit<BlockRecord, 'mediaId' | 'deletedAt'>) => ({
    id: row.id,
    section_id: row.sectionId,
    kind: row.kind,
    position: row.position,
    settings: row.settings as Record<string, unknown>,
    slots: row.slots.map(toSlot),
    inserted_at: iso(row.insertedAt),
    updated_at: iso(row.updatedAt),
  });

  const toSectionContent = (row: SectionContentRecord) => stamped({
    id: row.id,
    issue_id: row.issueId,
    section_id: row.sectionId,
    content_id: row.contentId,
    position: row.position,
  }, row);

  /** Reader: a section in one language by the locale rule. */
  const readerSectionFields = (row: SectionRecord, view: View) => {
    const { entry, meta } = pickLocale(row.locales, view.locale, view.fallback);
    return {
      fields: {
        id: row.id,
        issue_id: row.issueId,
        key: row.key,
        position: row.position,
        name: entry?.name ?? null,
        description_html: entry?.descriptionHtml ?? null,
        description_text: entry?.descriptionText ?? null,
        updated_at: iso(row.updatedAt),
      },
      meta,
    };
  };

  const toReaderSection = (row: SectionRecord, view: View) => {
    const { fields, meta } = readerSectionFields(row, view);
    return Object.assign(fields, { meta: { locales: meta } });
  };

  /** Reader: the issue in one language, its sections in order in that language. */
  const toReaderIssue = (row: IssueRecord, sections: SectionRecord[], view: View) => {
    const { entry, meta } = pickLocale(row.locales, view.locale, view.fallback);
    const asked = { ...view, locale: meta.current ?? view.locale };
    return {
      id: row.id,
      issue_type_id: row.issueTypeId,
      kind: row.kind,
      color: row.color,
      pdf_file_key: row.pdfFileKey,
      advertising_key: row.advertisingKey,
      locale: entry?.locale ?? null,
      name: entry?.name ?? null,
      description_html: entry?.descriptionHtml ?? null,
      description_text: entry?.descriptionText ?? null,
      visual: entry ? toVisual(entry) : null,
      sections: sections.map((s) => readerSectionFields(s, asked).fields),
      updated_at: iso(row.updatedAt),
      meta: { locales: meta },
    };
  };

  return { toIssue, toSection, toBlock, toSlot, toSectionContent, toReaderSection, toReaderIssue };
}

export type IssueMappers = ReturnType<typeof issueMappers>;
