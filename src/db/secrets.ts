import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from './client.js';
import { serviceSecrets } from './service-secrets.table.js';

/** A random secret shared by every instance: the first one to start creates it. */
export async function serviceSecret(db: Db, name: string, bytes = 32): Promise<Buffer> {
  await db
    .insert(serviceSecrets)
    .values({ name, value: randomBytes(bytes).toString('base64') })
    .onConflictDoNothing();
  const [row] = await db.select().from(serviceSecrets).where(eq(serviceSecrets.name, name));
  return Buffer.from(row!.value, 'base64');
}
