import type { paths } from './schema.js';

const base = process.env.MPS_URL ?? 'http://127.0.0.1:3000';
type Json<T> = { content: { 'application/json': T } };
type Ok<P extends keyof paths> = paths[P] extends { get: { responses: { 200: Json<infer T> } } } ? T : never;
type Body<P extends keyof paths> = paths[P] extends { post: { requestBody?: Json<infer B> } } ? B : never;
type Created<P extends keyof paths> = paths[P] extends { post: { responses: { 201: Json<infer T> } } } ? T : never;
async function call<T>(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<T> {
  const init = body === undefined ? { method, headers } : { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const res = await fetch(new URL(path, base), init);
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${((await res.json()) as { code: string }).code}`);
  return (await res.json()) as T;
}
const get = <P extends keyof paths>(path: P, headers: Record<string, string>) => call<Ok<P>>('GET', path, headers);
const post = <P extends keyof paths>(path: P, body: Body<P>, headers: Record<string, string>) => call<Created<P>>('POST', path, headers, body);
const key = { 'x-api-key': process.env.MPS_API_KEY ?? '' };
const created = await post('/core/v2/categories', { locales: [{ locale: 'en', name: 'Science' }] }, key);
const backoffice = await get('/core/v2/categories', key);
const reader = await get('/api/media/v1/categories', { authorization: `Bearer ${process.env.MPS_TOKEN}`, 'x-service-media-id': process.env.MPS_MEDIA_ID ?? '' });
console.log(created.data.id, backoffice.data.map((c) => c.locales.map((l) => l.name)), reader.data.map((c) => c.name), reader.meta.next);
