import { z } from 'zod';

type Meta = { id?: string | undefined; [key: string]: unknown };

/** A WeakMap that answers from another one for what it does not hold itself. */
class WithFallback<K extends object, V> extends WeakMap<K, V> {
  constructor(private readonly fallback: WeakMap<K, V>) {
    super();
  }
  override get(key: K): V | undefined {
    return super.get(key) ?? this.fallback.get(key);
  }
  override has(key: K): boolean {
    return super.has(key) || this.fallback.has(key);
  }
}

/**
 * The named schemas as zod's global registry has them, for the document. fastify-type-provider-zod
 * names a schema's input side `<id>Input`, so a schema named `VisualInput` beside one named `Visual`
 * would take the same component name and fail the whole document; such a schema is documented
 * as `VisualBody` instead.
 */
export function documentedRegistry(base: z.core.$ZodRegistry<Meta> = z.globalRegistry): z.core.$ZodRegistry<Meta> {
  const registry = z.registry<Meta>();
  // Descriptions, examples and the like of unnamed schemas stay where they are.
  registry._map = new WithFallback(base._map);
  for (const [id, schema] of base._idmap) {
    const taken = id.endsWith('Input') && base._idmap.has(id.slice(0, -'Input'.length));
    registry.add(schema, { ...base._map.get(schema), id: taken ? `${id.slice(0, -'Input'.length)}Body` : id });
  }
  return registry;
}
