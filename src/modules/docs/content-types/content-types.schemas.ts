import type { z } from 'zod';
import { describedRecordSchemas } from '../../../shared/record/index.js';

const schemas = describedRecordSchemas({ record: 'ContentType', create: 'ContentTypeCreate', update: 'ContentTypeUpdate' });
export const contentTypeSchema = schemas.record;
export const contentTypeCreateBody = schemas.create;
export const contentTypeUpdateBody = schemas.update;

export type ContentTypeCreate = z.output<typeof contentTypeCreateBody>;
export type ContentTypeUpdate = z.output<typeof contentTypeUpdateBody>;
