import { pgTable, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns.js';

// Secrets the service makes for itself (cursor signing key, later token signing keys),
// kept in the database so that every instance shares them.
export const serviceSecrets = pgTable('service_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  ...timestamps(),
});
