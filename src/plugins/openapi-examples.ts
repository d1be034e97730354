import { z } from 'zod';

/**
 * Example values derived from JSON Schemas, for the request bodies of the OpenAPI document.
 * A schema's own `examples`, `example`, `const`, `default` or first `enum` value wins (declare
 * one with zod's `.meta({ examples: [...] })` where a derived value would say nothing); otherwise
 * the value is made from the type, format, bounds and pattern, and a string field reads as its
 * name ("Example title"). Objects get their required properties, or all of them when none is
 * required (a PATCH body) or when asked (rules across fields, such as "one of these two").
 */

export type JsonSchema = { [key: string]: unknown };

/**
 * The first derived example that the route's own zod schema accepts: its required fields, else
 * all of them (a rule across fields that JSON Schema cannot say). Undefined when neither passes:
 * the schema then needs `.meta({ examples: [...] })`.
 */
export function bodyExample(schema: z.ZodType): unknown {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
  const resolve: Resolve = (node) => {
    let current = node;
    for (let i = 0; i < 16 && typeof current.$ref === 'string'; i++) {
      current = current.$ref === '#' ? json : (defs[current.$ref.replace('#/$defs/', '')] ?? {});
    }
    return current;
  };
  for (const all of [false, true]) {
    const example = exampleOf(json, resolve, { all }, 'body');
    if (example !== undefined && schema.safeParse(example).success) return example;
  }
  return undefined;
}

const SAMPLE_UUID = '0193a5c4-2b6e-7d1f-9a3c-5e8f0b1d2c4a';
const SAMPLE_TIME = '2026-11-21T22:44:08.123Z';

const FORMATS: Record<string, string> = {
  uuid: SAMPLE_UUID,
  'date-time': SAMPLE_TIME,
  date: '2026-11-21',
  time: '22:44:08Z',
  email: 'reader@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  'uri-reference': '/example',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'ZXhhbXBsZQ==',
  base64: 'ZXhhbXBsZQ==',
};

/** Follows `$ref`s to `#/components/schemas/...` in the given document components. */
export type Resolve = (schema: JsonSchema) => JsonSchema;

const MAX_DEPTH = 8;

export interface ExampleOptions {
  /** Every property of every object, not only the required ones. */
  all?: boolean;
}

/** An example of the schema, or undefined when none can be made (a pattern too intricate, a cycle). */
export function exampleOf(schema: JsonSchema, resolve: Resolve, options: ExampleOptions = {}, name = 'value', depth = 0): unknown {
  if (depth > MAX_DEPTH) return undefined;
  const s = resolve(schema);
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.example !== undefined) return s.example;
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum.find((v) => v !== null) ?? s.enum[0];

  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = s[key] as JsonSchema[] | undefined;
    if (!branches) continue;
    // The first branch that is not `null` and gives a value.
    for (const branch of branches) {
      if (resolve(branch).type === 'null') continue;
      const value = exampleOf(branch, resolve, options, name, depth + 1);
      if (value !== undefined) return value;
    }
    return branches.some((b) => resolve(b).type === 'null') ? null : undefined;
  }
  if (Array.isArray(s.allOf)) {
    const parts = (s.allOf as JsonSchema[]).map((part) => exampleOf(part, resolve, options, name, depth + 1));
    if (parts.every((p) => p && typeof p === 'object' && !Array.isArray(p))) return Object.assign({}, ...parts);
    return parts[0];
  }

  const types = Array.isArray(s.type) ? (s.type as string[]) : s.type ? [s.type as string] : [];
  const type = types.find((t) => t !== 'null') ?? types[0] ?? (s.properties ? 'object' : undefined);
  switch (type) {
    case 'object':
      return objectExample(s, resolve, options, depth);
    case 'array': {
      const item = s.items ? exampleOf(s.items as JsonSchema, resolve, options, singular(name), depth + 1) : 'example';
      if (item === undefined) return undefined;
      const count = Math.max(1, Number(s.minItems ?? 1));
      return Array.from({ length: count }, () => item);
    }
    case 'string':
      return stringExample(s, name);
    case 'integer':
    case 'number':
      return numberExample(s, type === 'integer');
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      // No type: any JSON value.
      return {};
  }
}

function objectExample(s: JsonSchema, resolve: Resolve, options: ExampleOptions, depth: number): unknown {
  const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((s.required as string[] | undefined) ?? []);
  const names = Object.keys(properties).filter((n) => options.all || required.size === 0 || required.has(n));
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const value = exampleOf(properties[name]!, resolve, options, name, depth + 1);
    if (value === undefined) {
      if (required.has(name)) return undefined;
      continue;
    }
    out[name] = value;
  }
  return out;
}

function numberExample(s: JsonSchema, integer: boolean): number {
  const min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : undefined;
  const max = typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - 1 : undefined;
  let value = min ?? Math.min(1, max ?? 1);
  if (integer) value = Math.ceil(value);
  return value;
}

function stringExample(s: JsonSchema, name: string): string | undefined {
  const min = Number(s.minLength ?? 0);
  const max = Number(s.maxLength ?? Number.MAX_SAFE_INTEGER);
  const format = typeof s.format === 'string' ? FORMATS[s.format] : undefined;
  const pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern, 'u') : undefined;
  // A format's sample reads better than what a pattern makes (zod gives uuid and email both).
  let value = format ?? (pattern ? undefined : `Example ${words(name).join(' ')}`);
  if (pattern && (value === undefined || !pattern.test(value))) value = fromPattern(s.pattern as string, words(name));
  if (value === undefined) return undefined;
  if (value.length > max) value = value.slice(0, max);
  if (value.length < min) value = value.padEnd(min, value.slice(-1) || 'x');
  if (pattern && !pattern.test(value)) return undefined;
  return value;
}

const words = (name: string) => name.split(/[_\-\s]+|(?=[A-Z])/).filter(Boolean).map((w) => w.toLowerCase());
const singular = (name: string) => (name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.replace(/s$/, ''));

// ------------------------------------------------------------------------------------------
// A string matching a regular expression: the field's name where the pattern lets it through,
// the least the pattern asks for elsewhere. Handles what JSON Schema patterns are made of:
// literals, escapes, classes, groups with alternatives, and quantifiers.

type Atom =
  | { kind: 'char'; chars: (c: string) => boolean; first: string; literal?: boolean }
  | { kind: 'group'; alternatives: Term[][] };
type Term = { atom: Atom; min: number; max: number };

class PatternParser {
  private i = 0;
  constructor(private readonly source: string) {}

  parse(): Term[][] {
    const alternatives = this.alternatives();
    if (this.i < this.source.length) throw new Error('unbalanced pattern');
    return alternatives;
  }

  private alternatives(): Term[][] {
    const out: Term[][] = [this.sequence()];
    while (this.source[this.i] === '|') {
      this.i++;
      out.push(this.sequence());
    }
    return out;
  }

  private sequence(): Term[] {
    const terms: Term[] = [];
    while (this.i < this.source.length && this.source[this.i] !== '|' && this.source[this.i] !== ')') {
      const c = this.source[this.i]!;
      if (c === '^' || c === '$') {
        this.i++;
        continue;
      }
      const atom = this.atom();
      const [min, max] = this.quantifier();
      terms.push({ atom, min, max });
    }
    return terms;
  }

  private atom(): Atom {
    const c = this.source[this.i++]!;
    if (c === '(') {
      if (this.source.startsWith('?:', this.i)) this.i += 2;
      else if (this.source[this.i] === '?') throw new Error('lookaround');
      const alternatives = this.alternatives();
      if (this.source[this.i++] !== ')') throw new Error('unclosed group');
      return { kind: 'group', alternatives };
    }
    if (c === '[') return this.charClass();
    if (c === '.') return { kind: 'char', chars: (x) => x !== '\n', first: 'x' };
    if (c === '\\') return this.escape();
    return literal(c);
  }

  private escape(): Atom {
    this.i--;
    const member = this.classMember();
    return typeof member === 'string' ? literal(member) : member;
  }

  /** A character, or a class escape such as `\d` (in a class, or after a backslash in the pattern). */
  private classMember(): string | Atom {
    const c = this.source[this.i++]!;
    if (c !== '\\') return c;
    const e = this.source[this.i++]!;
    const set = ESCAPE_CLASSES[e];
    if (set) return set;
    if (e === 'x' || e === 'u') {
      const length = e === 'x' ? 2 : 4;
      const ch = String.fromCharCode(parseInt(this.source.slice(this.i, this.i + length), 16));
      this.i += length;
      return ch;
    }
    return e;
  }

  private charClass(): Atom {
    const negated = this.source[this.i] === '^';
    if (negated) this.i++;
    const members: Array<(x: string) => boolean> = [];
    const firsts: string[] = [];
    while (this.i < this.source.length && this.source[this.i] !== ']') {
      const from = this.classMember();
      if (typeof from !== 'string') {
        members.push(from.kind === 'char' ? from.chars : () => false);
        if (from.kind === 'char') firsts.push(from.first);
      } else if (this.source[this.i] === '-' && this.source[this.i + 1] !== ']') {
        this.i++;
        const to = this.classMember();
        if (typeof to !== 'string') throw new Error('range to a class escape');
        members.push((x) => x >= from && x <= to);
        firsts.push(from);
      } else {
        members.push((x) => x === from);
        firsts.push(from);
      }
    }
    if (this.source[this.i++] !== ']') throw new Error('unclosed class');
    const inClass = (x: string) => members.some((member) => member(x));
    if (negated) return { kind: 'char', chars: (x) => !inClass(x), first: [...'xa0-_'].find((x) => !inClass(x)) ?? '~' };
    // Letters read better than digits or punctuation when the pattern gives the choice.
    const first = ['a', '0', ...firsts].find((x) => inClass(x))!;
    return { kind: 'char', chars: inClass, first };
  }

  private quantifier(): [number, number] {
    const c = this.source[this.i];
    let q: [number, number] = [1, 1];
    if (c === '?') q = [0, 1];
    else if (c === '*') q = [0, Infinity];
    else if (c === '+') q = [1, Infinity];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.i));
      if (!m) return q;
      this.i += m[0].length - 1;
      q = [Number(m[1]), m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3])];
    } else {
      return q;
    }
    this.i++;
    if (this.source[this.i] === '?') this.i++;
    return q;
  }
}

function literal(c: string): Atom {
  return { kind: 'char', chars: (x) => x === c, first: c, literal: true };
}

const ESCAPE_CLASSES: Record<string, Atom> = {
  d: { kind: 'char', chars: (x) => x >= '0' && x <= '9', first: '0' },
  w: { kind: 'char', chars: (x) => /\w/.test(x), first: 'a' },
  s: { kind: 'char', chars: (x) => /\s/.test(x), first: ' ' },
  D: { kind: 'char', chars: (x) => !(x >= '0' && x <= '9'), first: 'a' },
  W: { kind: 'char', chars: (x) => !/\w/.test(x), first: '-' },
  S: { kind: 'char', chars: (x) => !/\s/.test(x), first: 'a' },
};

/** Builds a string for the terms, taking the characters of `word` wherever the pattern accepts them. */
function generate(terms: Term[], word: string, cursor: { at: number }): string {
  let out = '';
  for (const { atom, min, max } of terms) {
    if (atom.kind === 'group') {
      // An optional group is left out; a required one takes its first alternative.
      for (let n = 0; n < min; n++) out += generate(atom.alternatives[0]!, word, cursor);
      continue;
    }
    let n = 0;
    while (n < max && cursor.at < word.length && atom.chars(word[cursor.at]!)) {
      out += word[cursor.at++];
      n++;
    }
    const taken = n;
    for (; n < min; n++) out += atom.first;
    // After a separator the pattern wrote itself (a ':'), the next part reads as the name again.
    if (atom.literal && taken === 0 && min > 0 && cursor.at >= word.length) cursor.at = 0;
  }
  return out;
}

function fromPattern(pattern: string, nameWords: string[]): string | undefined {
  try {
    const alternatives = new PatternParser(pattern).parse();
    const word = nameWords.join('-') || 'example';
    for (const terms of alternatives) {
      const value = generate(terms, word, { at: 0 });
      if (new RegExp(pattern, 'u').test(value)) return value;
    }
  } catch {
    // A pattern beyond this parser: the schema needs an example of its own.
  }
  return undefined;
}
