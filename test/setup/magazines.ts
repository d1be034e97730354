import type { Client } from './factories.js';
import { short } from './docs.js';

// HTTP factories of the magazines area: issue types, issues, sections made through the Backoffice.

const created = async <T>(res: Awaited<ReturnType<Client['post']>>, what: string): Promise<T> => {
  if (res.statusCode !== 201) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json().data as T;
};

export interface IssueWire {
  id: string;
  workspace_id: string;
  issue_type_id: string;
  locales: Array<{ id: string; locale: string; name: string; deleted_at: string | null }>;
  deleted_at: string | null;
  [field: string]: unknown;
}

export interface SectionWire {
  id: string;
  issue_id: string;
  key: string;
  position: number;
  [field: string]: unknown;
}

export async function createIssueType(api: Client, body: Record<string, unknown> = {}) {
  return created<{ id: string; key: string; name: string }>(
    await api.post('/magazines/v2/issue-types', { key: `monthly-${short()}`, name: 'Monthly', ...body }),
    'createIssueType',
  );
}

/** A regular issue with an English entry, in the given workspace. */
export async function createIssue(api: Client, workspaceId: string, issueTypeId: string, body: Record<string, unknown> = {}) {
  return created<IssueWire>(
    await api.post(`/magazines/v2/workspaces/${workspaceId}/issues`, {
      issue_type_id: issueTypeId,
      kind: 'regular',
      color: '#112233',
      locales: [{ locale: 'en', name: `Issue ${short()}` }],
      ...body,
    }),
    'createIssue',
  );
}

export async function createSection(api: Client, issueId: string, body: Record<string, unknown> = {}) {
  return created<SectionWire>(
    await api.post(`/magazines/v2/issues/${issueId}/sections`, {
      key: `section-${short()}`,
      locales: [{ locale: 'en', name: `Section ${short()}` }],
      ...body,
    }),
    'createSection',
  );
}

export async function addSectionContent(api: Client, issueId: string, sectionId: string, contentId: string, position?: number) {
  return created<{ id: string; position: number }>(
    await api.post(`/magazines/v2/issues/${issueId}/section-contents`, {
      section_id: sectionId,
      content_id: contentId,
      ...(position !== undefined && { position }),
    }),
    'addSectionContent',
  );
}
