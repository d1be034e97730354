import { z } from 'zod';
import { type LocaleFallback, pickLocale } from '../http/reader.js';

/**
 * Rows on the wire and bodies into columns, one rule for every record: wire fields are the
 * row's properties in snake_case, in the order the wire schema declares them; a sanitized HTML
 * field (`richHtml()`: `{html, text}`) is its `_html` and `_text` columns; the tenancy column
 * never leaves the database.
 */

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
// Wire names are few and read on every record: each is converted once.
const snakeNames = new Map<string, string>();
const snake = (key: string) => {
  let name = snakeNames.get(key);
  if (name === undefined) {
    name = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (snakeNames.size < 10_000) snakeNames.set(key, name);
  }
  return name;
};

const isHtml = (value: unknown): value is { html: string; text: string } =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && 'html' in value && 'text' in value && Object.keys(value).length === 2;

/** Column values from body fields: names to properties, HTML to its two columns; fields left out stay out. */
export function columnsOf(fields: Record<string, unknown>, skip: ReadonlySet<string> = new Set()): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || skip.has(key)) continue;
    if (key.endsWith('_html') && (isHtml(value) || value === null)) {
      out[camel(key)] = value?.html ?? null;
      out[camel(key.replace(/_html$/, '_text'))] = value?.text ?? null;
    } else out[camel(key)] = value;
  }
  return out;
}

/**
 * The order a wire schema declares an object's fields in, nested objects and arrays included (a
 * value stored as jsonb comes back with its keys shortest first): made once per schema.
 */
export interface WirePlan {
  /** Per field: its wire name, the row's property name, the plan of its value. */
  fields?: Array<readonly [wire: string, prop: string, value: WirePlan | undefined]>;
  items?: WirePlan | undefined;
}

const plans = new WeakMap<z.ZodType, WirePlan | undefined>();

/** What wraps a schema's value without changing its shape: its inner schema, by zod's public classes. */
const innerOf = (schema: z.ZodType): z.ZodType | undefined => {
  const wraps =
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodReadonly ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodLazy;
  return wraps ? (schema.unwrap() as z.ZodType) : undefined;
};

/** The plan of a zod schema: objects, arrays, and what wraps them (nullable, optional, default, lazy); undefined for anything else. */
export function wirePlan(schema: z.ZodType): WirePlan | undefined {
  if (plans.has(schema)) return plans.get(schema);
  const inner = innerOf(schema);
  if (inner) return wirePlan(inner);
  if (schema instanceof z.ZodArray) {
    const plan: WirePlan = {};
    plans.set(schema, plan);
    plan.items = wirePlan(schema.element as z.ZodType);
    return plan;
  }
  if (schema instanceof z.ZodObject) {
    // Set before its fields are planned: a tree (menu items) refers to itself.
    const plan: WirePlan = {};
    plans.set(schema, plan);
    plan.fields = Object.keys(schema.shape).map((wire) => [wire, camel(wire), wirePlan(schema.shape[wire] as z.ZodType)] as const);
    return plan;
  }
  plans.set(schema, undefined);
  return undefined;
}

/** One field of a plan onto `out`: the row's camelCase property, or the snake_case key of a stored JSON value; left out when absent. */
function planned(out: Record<string, unknown>, fields: Record<string, unknown>, [wire, prop, value]: NonNullable<WirePlan['fields']>[number]): void {
  const v = prop in fields ? fields[prop] : fields[wire];
  if (v !== undefined) out[wire] = wireOf(v, value);
}

/**
 * A row (and its parts) on the wire: property names in snake_case, the tenancy column left out.
 * With the schema's `plan`, its fields in the schema's order and only those (a field is the row's
 * camelCase property, or the snake_case key of a stored JSON value); without one, the row's order.
 */
export function wireOf(row: unknown, plan?: WirePlan): unknown {
  if (typeof row !== 'object' || row === null) return row;
  if (Array.isArray(row)) {
    const items = plan?.items;
    const out = new Array<unknown>(row.length);
    for (let i = 0; i < row.length; i++) out[i] = wireOf(row[i], items);
    return out;
  }
  // A hot path of every record read (a menu is a few hundred nested objects): no entries arrays.
  const fields = row as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (plan?.fields) {
    for (const field of plan.fields) planned(out, fields, field);
    return out;
  }
  for (const key in fields) {
    if (key === 'mediaId') continue;
    out[snake(key)] = wireOf(fields[key]);
  }
  return out;
}


/**
 * A record as readers see it, in the order of its Reader schema's `plan`: its fields, the entry of
 * the asked language as `localized`, meta.locales, its timestamps.
 */
export function readerRecordOf(row: object, view: { locale: string | undefined; fallback: LocaleFallback }, plan: WirePlan) {
  // The language is picked first, so that only the served entry (of several, each with its parts) is mapped.
  const fields = row as Record<string, unknown> & { locales?: Array<{ locale: string }> };
  const picked = fields.locales ? pickLocale(fields.locales, view.locale, view.fallback) : undefined;
  const out: Record<string, unknown> = {};
  for (const field of plan.fields ?? []) {
    const [wire, , value] = field;
    if (wire === 'localized') out.localized = picked?.entry ? wireOf(picked.entry, value) : null;
    else if (wire === 'meta') out.meta = { locales: picked?.meta ?? { current: null, available: [], requested: view.locale ?? null } };
    else planned(out, fields, field);
  }
  return out;
}

/** The Backoffice wire of a record: `wireOf` in the order of its schema's `plan`, typed as the schema's input. */
export const backofficeRecordOf = <T>(row: object, plan: WirePlan | undefined) => wireOf(row, plan) as T;
