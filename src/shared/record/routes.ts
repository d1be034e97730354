import type { PageFilter } from '../aggregate.js';
import type { RequestContext } from '../context.js';
import type { Lockable } from '../http/effects.js';
import { publicTwin } from '../http/public.js';
import { readerRecordRoutes, recordListRoute } from '../http/records.js';
import { backofficeResource } from '../http/resource.js';
import { revisionRoutes } from '../http/revisions.js';
import { type RevisionSource, aggregateRows } from '../revisions.js';
import type { ZodApp } from '../http/route.js';
import { isUuid } from '../ids.js';
import type { PagingQuery } from '../schemas.js';
import type { DeclaredService, RecordDeclaration } from './declaration.js';
import { wireOf, wirePlan } from './wire.js';

/** The Backoffice wire of a declared record's row: its own mapper, or the item schema's fields in order. */
export function toWireOf(d: RecordDeclaration): (row: unknown) => never {
  if (d.toWire) return d.toWire as (row: unknown) => never;
  const plan = wirePlan(d.schemas.item);
  return (row) => wireOf(row, plan) as never;
}

/** A declared record's revisions (when it keeps them): its Backoffice wire shape, its aggregate's rows. */
function declaredRevisions(d: RecordDeclaration, service: DeclaredService): RevisionSource | undefined {
  if (!d.revisions) return undefined;
  const map = toWireOf(d);
  return {
    kind: d.kind,
    schema: d.schemas.item,
    keys: d.revisions.keys,
    rows: aggregateRows(d.agg as unknown as Parameters<typeof aggregateRows>[0]),
    notFound: d.notFound,
    load: async (ctx, id) => map(await service.get(ctx, id)) as Record<string, unknown>,
  };
}

/**
 * A declared record's standard Backoffice routes: list, create, by id, update (PATCH, or PUT for a
 * replace), delete and restore (or those it offers), and its revisions' when it keeps them.
 */
export function recordBackofficeRoutes(app: ZodApp, d: RecordDeclaration, service: DeclaredService) {
  const source = declaredRevisions(d, service);
  backofficeResource(app, {
    ...(source && { revises: { source } }),
    path: d.path,
    names: d.names,
    tag: d.tags.backoffice,
    item: d.schemas.item,
    map: toWireOf(d),
    read: d.area.read,
    write: d.area.write,
    kind: d.kind,
    lock: d.agg as unknown as Lockable,
  }).standard(service, {
    label: d.label,
    plural: d.plural,
    create: d.schemas.create,
    update: d.schemas.update,
    ...(d.only && { only: d.only }),
    ...(d.replace && { replace: true }),
    ...(d.notes && { notes: d.notes }),
    // A delete that a use can refuse answers that use's 409.
    ...((d.docs || d.usedBy) && { docs: { ...d.docs, ...(d.usedBy && { remove: { errors: [409], ...d.docs?.remove } }) } }),
    errors: d.errors ?? (d.references ? [404, 409] : [409]),
  });
  if (source) revisionRoutes(app, { path: d.path, names: d.names, label: d.label, source, tag: d.tags.backoffice, read: d.area.read, write: d.area.write });
}

/** The record as readers list it (in its Reader view when it has one, the Reader's order), narrowed by a filter when given. */
const readerPage = (d: RecordDeclaration, service: DeclaredService) => (ctx: RequestContext, query: PagingQuery, filter?: PageFilter) =>
  service.listIn(ctx, query, d.reader?.view as never, filter);

/**
 * A declared record's Reader list declaration (`recordListRoute`) over the records readers see, in
 * their order, for a list of another tree to take as it is under its own path, narrowed by the
 * filter the path's params make when given (an organization's records).
 */
export function recordReaderList(
  d: RecordDeclaration,
  service: DeclaredService,
  how: { description: string; filter?: (params: Record<string, string>) => PageFilter },
) {
  const page = readerPage(d, service);
  return recordListRoute(
    {
      path: d.path,
      names: d.names,
      plural: d.plural,
      tag: d.tags.reader!,
      item: d.schemas.reader!,
      kind: d.kind,
      ...(d.reader?.toReader && { toReader: d.reader.toReader }),
      ...(d.reader?.locales === false && { locales: false as const }),
    },
    { description: how.description, load: (ctx, query, params) => page(ctx, query, how.filter?.(params)) },
  );
}

/** A declared record's Reader routes (`media:read`), when readers see it: its list and its read by id or key (unless it is only listed). */
export function recordReaderRoutes(app: ZodApp, d: RecordDeclaration, service: DeclaredService) {
  const r = d.reader;
  if (!r) return;
  const view = r.view as never;
  const page = readerPage(d, service);
  readerRecordRoutes(app, {
    path: r.path,
    names: d.names,
    label: d.label,
    kind: d.kind,
    plural: d.plural,
    tag: d.tags.reader!,
    item: d.schemas.reader!,
    ...(r.toReader && { toReader: r.toReader }),
    ...(r.locales === false && { locales: false as const }),
    ...(r.list && { list: { load: (ctx, query) => page(ctx, query), ...(r.list !== true && { description: r.list }) } }),
    ...(r.by !== false && {
      get: {
        by: r.by ?? 'id',
        ...(r.read && { description: r.read }),
        load: (ctx: RequestContext, address: string) =>
          r.by === 'key' || (r.by === 'key_or_id' && !isUuid(address)) ? service.getByKey(ctx, address, view) : service.getIn(ctx, address, view),
      },
    }),
  });
}

/**
 * A declared record's Public reads (deprecated; the Public tree registers after the Reader's): the
 * twins of its Reader list, under the media (`/<group>/v2/medias/{media_id}<path>`), and of its
 * read by id (`/<group>/v2<path>/{id}`), whose media is the record's own, in the Reader's view
 * (`<path>`: the Public one when declared, else the Reader's).
 */
export function recordPublicRoutes(app: ZodApp, d: RecordDeclaration, service: DeclaredService) {
  const r = d.reader;
  if (!d.public || !r) return;
  const prefix = `/${d.public.group}/v2`;
  const path = d.public.path ?? r.path;
  const tag = d.tags.public ?? d.tags.reader!;
  if (r.list || d.public.list) {
    publicTwin(app, { reader: `readerList${d.names.many}`, url: `${prefix}/medias/:media_id${path}`, operationId: `publicList${d.names.many}`, media: 'path', tag });
  }
  if ((r.by ?? 'id') === 'id') {
    const media = { param: 'id', of: (id: string) => service.mediaOf(id, r.view as never) };
    publicTwin(app, { reader: `readerGet${d.names.one}`, url: `${prefix}${path}/:id`, operationId: `publicGet${d.names.one}`, media, tag });
  }
}
