import type { paths } from './schema.js';

type Ok<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': infer T } } } } } ? T : never;
async function get<P extends keyof paths>(path: P, headers: Record<string, string>): Promise<Ok<P>> {
  const res = await fetch(new URL(path, process.env.MPS_URL ?? 'http://127.0.0.1:3000'), { headers });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${((await res.json()) as { code: string }).code}`);
  return (await res.json()) as Ok<P>;
}
const backoffice = await get('/core/v2/categories', { 'x-api-key': process.env.MPS_API_KEY ?? '' });
const reader = await get('/api/media/v1/categories', { authorization: `Bearer ${process.env.MPS_TOKEN}`, 'x-service-media-id': process.env.MPS_MEDIA_ID ?? '' });
console.log(backoffice.data.map((c) => c.locales.map((l) => l.name)), reader.data.map((c) => c.name), reader.meta.next);
