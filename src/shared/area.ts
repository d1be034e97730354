import type { FastifyInstance } from 'fastify';
import type { ZodApp } from './http/route.js';
import type { RecordDeps } from './record/declaration.js';

/** The three trees an area mounts routes in. */
export type Tree = 'backoffice' | 'reader' | 'public';

/**
 * An area of the service as the trees see it (docs/architecture.md, "Add an area"): its name and
 * what it mounts in each tree, given the tree's context (`C`: the configuration and every module's
 * services) and its own services (`S`), which an area the container does not build makes from
 * what every declared record is made with (`services`; a record area's: `recordArea`). The trees
 * iterate a list of areas (src/areas.ts), so that adding one is a line there, or a test's
 * `buildApp({ areas })`.
 */
export interface Area<C = unknown, S = unknown> {
  name: string;
  services?(deps: RecordDeps): S;
  backoffice?(app: ZodApp, context: C, own: S): unknown;
  reader?(app: ZodApp, context: C, own: S): unknown;
  public?(app: ZodApp, context: C, own: S): unknown;
}

/** An area with its own services made. */
export interface MountedArea<C> {
  area: Area<C>;
  own: unknown;
}

/** The areas each tree mounts, in its order. */
export type AreasByTree<C> = Record<Tree, ReadonlyArray<MountedArea<C>>>;

/**
 * The areas as `tree` mounts them: those `lead` names first, in its order, then the others in the
 * list's (the order a tree's routes are registered in is the order of its paths in the OpenAPI
 * document and of its route table).
 */
export function inTreeOrder<C>(areas: ReadonlyArray<MountedArea<C>>, lead: readonly string[] = []): Array<MountedArea<C>> {
  const rank = (m: MountedArea<C>) => (lead.includes(m.area.name) ? lead.indexOf(m.area.name) : lead.length);
  // Array.prototype.sort is stable: areas of equal rank keep the list's order.
  return [...areas].sort((a, b) => rank(a) - rank(b));
}

/** Mounts each area's routes of `tree` in the tree's scope (where its routes declare zod schemas), one after the other. */
export async function mountAreas<C>(app: FastifyInstance, tree: Tree, areas: ReadonlyArray<MountedArea<C>>, context: C): Promise<void> {
  for (const { area, own } of areas) await area[tree]?.(app as unknown as ZodApp, context, own);
}
