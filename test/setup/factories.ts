import { randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { z } from 'zod';
import type { App } from '../../src/app.js';
import type { categorySchema } from '../../src/modules/core/categories/categories.schemas.js';
import { ROLES, type Role } from '../../src/shared/permissions.js';

export interface SeededMedia {
  mediaId: string;
  workspaceId: string;
  /** One live key per built-in role. */
  keys: Record<Role, string>;
}

/** A media of its own for one test: tests never share rows, so files need no truncation. */
export async function seedMedia(app: App, options: { locales?: string[]; name?: string } = {}): Promise<SeededMedia> {
  const locales = options.locales ?? ['en', 'fr'];
  const { media, workspace } = await app.services.core.tenancy.createMedia({
    name: options.name ?? `Media ${randomUUID().slice(0, 8)}`,
    defaultLocale: locales[0]!,
    locales,
  });
  const keys = {} as Record<Role, string>;
  for (const role of ROLES) {
    keys[role] = (await app.services.core.apiKeys.create(media.id, { name: `${role} key`, role })).secret;
  }
  return { mediaId: media.id, workspaceId: workspace.id, keys };
}

type Body = InjectOptions['payload'];

/** A small HTTP client over app.inject, sending one API key. */
export function client(app: App, apiKey?: string) {
  const send = (method: InjectOptions['method'], url: string, payload?: Body, headers: Record<string, string> = {}) =>
    app.inject({
      method,
      url,
      ...(payload !== undefined && { payload }),
      headers: { ...(apiKey && { 'x-api-key': apiKey }), ...headers },
    });
  return {
    get: (url: string, headers?: Record<string, string>) => send('GET', url, undefined, headers),
    post: (url: string, body?: Body, headers?: Record<string, string>) => send('POST', url, body, headers),
    patch: (url: string, body?: Body, headers?: Record<string, string>) => send('PATCH', url, body, headers),
    put: (url: string, body?: Body, headers?: Record<string, string>) => send('PUT', url, body, headers),
    delete: (url: string, headers?: Record<string, string>) => send('DELETE', url, undefined, headers),
  };
}

export type Client = ReturnType<typeof client>;

/** Creates a category through the API and returns its wire shape. */
export async function createCategory(api: Client, body: Record<string, unknown> = {}) {
  const res = await api.post('/core/v2/categories', {
    locales: [
      { locale: 'en', name: `Category ${randomUUID().slice(0, 8)}` },
      { locale: 'fr', name: `Catégorie ${randomUUID().slice(0, 8)}` },
    ],
    ...body,
  });
  if (res.statusCode !== 201) throw new Error(`createCategory: ${res.statusCode} ${res.body}`);
  return res.json().data as CategoryWire;
}

export type CategoryWire = z.output<typeof categorySchema>;

export const json = (res: LightMyRequestResponse) => res.json() as Record<string, unknown> & { data: unknown };
