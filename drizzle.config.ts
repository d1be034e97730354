import { defineConfig } from 'drizzle-kit';

// drizzle-kit only generates SQL from the schema; the service applies it at start-up.
export default defineConfig({
  dialect: 'postgresql',
  // Each module owns its tables: every *.table.ts under src/ is part of the schema.
  schema: './src/**/*.table.ts',
  out: './migrations',
  casing: 'snake_case',
});
