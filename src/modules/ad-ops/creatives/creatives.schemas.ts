import { z } from 'zod';
import { richHtml } from '../../../shared/html.js';
import { isoTimestamp, uuid } from '../../../shared/schemas.js';
import { webUrl } from '../advertisers/advertisers.schemas.js';
import { CREATIVE_KINDS } from './creatives.table.js';

const size = z.int().min(1).max(10_000);

export const creativeSchema = z
  .object({
    id: uuid,
    ad_id: uuid,
    name: z.string(),
    kind: z.enum(CREATIVE_KINDS),
    click_url: z.string(),
    alt_text: z.string().nullable(),
    width: z.int().nullable().describe("Display width in pixels; the Reader falls back to the image's own"),
    height: z.int().nullable(),
    html: z.string().nullable().describe('Kind html: sanitized on write'),
    image: z
      .object({ id: uuid, file_key: z.string(), url: z.string(), width: z.int(), height: z.int() })
      .nullable()
      .describe('Kind image: the asset image uploaded to it (PUT …/image); null until then'),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'Creative' });

/** Create, and PUT (a full replace, validated like a create). */
export const creativeBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    kind: z.enum(CREATIVE_KINDS),
    click_url: webUrl.describe('Where a click leads: http or https only'),
    alt_text: z.string().trim().max(500).nullable().optional(),
    width: size.nullable().optional(),
    height: size.nullable().optional(),
    html: richHtml(50_000).nullable().optional().describe('Required for kind html, refused for kind image; sanitized on write'),
  })
  .superRefine((body, ctx) => {
    if (body.kind === 'html' && !body.html?.html.trim()) {
      ctx.addIssue({ code: 'custom', path: ['html'], message: 'is required for a creative of kind html (and must keep some content once sanitized)' });
    }
    if (body.kind === 'image' && body.html != null) {
      ctx.addIssue({ code: 'custom', path: ['html'], message: 'only a creative of kind html has html; an image is uploaded to the creative' });
    }
  })
  .meta({ id: 'CreativeWrite' });

export type CreativeInput = z.output<typeof creativeBody>;
