import type { Area } from '../area.js';
import { type DeclaredService, type RecordDeclaration, declaredService } from './declaration.js';
import { recordBackofficeRoutes, recordPublicRoutes, recordReaderRoutes } from './routes.js';

/**
 * An area made of declared records only: each record's standard service, its Backoffice routes
 * under the area's prefix (`/notes/v2`), and its Reader and Public reads where it declares them.
 * The trees mount it like any other (src/areas.ts, or a test's `buildApp({ areas })`).
 */
export function recordArea(name: string, prefix: string, records: readonly RecordDeclaration[]): Area<unknown, DeclaredService[]> {
  const each = (own: DeclaredService[], mount: (d: RecordDeclaration, service: DeclaredService) => void) => records.forEach((d, i) => mount(d, own[i]!));
  return {
    name,
    services: (deps) => records.map((d) => declaredService(deps, d)),
    backoffice: (app, _context, own) =>
      app.register(
        async (scope) => {
          each(own, (d, service) => recordBackofficeRoutes(scope, d, service));
        },
        { prefix },
      ),
    reader: (app, _context, own) => each(own, (d, service) => recordReaderRoutes(app, d, service)),
    public: (app, _context, own) => each(own, (d, service) => recordPublicRoutes(app, d, service)),
  };
}
