/**
 * The one way to declare a record kind (docs/architecture.md, "Add an area"): a declaration
 * (`defineRecord`), its standard service (`declaredService`, or `recordService` for a service
 * that adds rules of its own), its routes in each interface, and the rules every record shares:
 * row → wire, body → columns, references to other areas' records, schemas of localized records.
 */
export {
  type RecordArea,
  type RecordDeclaration,
  type RecordDeps,
  type RecordRow,
  type RecordView,
  type DeclaredService,
  declaredService,
  declaredServices,
  defineRecord,
  named,
} from './declaration.js';
export { type RecordService, type RecordSpec, recordService } from './service.js';
export { recordBackofficeRoutes, recordPublicRoutes, recordReaderList, recordReaderRoutes, toWireOf } from './routes.js';
export { recordArea } from './area.js';
export { type InUse, type LiveIds, type Reference, type Use, checkReferences, liveIdsIn, missingIds, reference, usedBy } from './references.js';
export { describedRecordSchemas, localesIn, recordSchemas, toDescribedRecord } from './schemas.js';
export { type WirePlan, backofficeRecordOf, columnsOf, readerRecordOf, wireOf, wirePlan } from './wire.js';
