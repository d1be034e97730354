import { toDescribedRecord } from '../../../shared/record/index.js';

/** A content type on the Backoffice wire: the shared described-record shape. */
export const toContentType = toDescribedRecord;
