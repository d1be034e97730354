-- Search entries carry their record's media, and the full-text index leads with it (btree_gin), so
-- that a search of one media reads its own matches only. Existing entries take their record's media.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
DROP INDEX "profile_locales_search_idx";--> statement-breakpoint
DROP INDEX "content_locales_search_idx";--> statement-breakpoint
ALTER TABLE "profile_locales" ADD COLUMN "media_id" uuid;--> statement-breakpoint
UPDATE "profile_locales" l SET "media_id" = p."media_id" FROM "profiles" p WHERE p."id" = l."profile_id";--> statement-breakpoint
ALTER TABLE "profile_locales" ALTER COLUMN "media_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "content_locales" ADD COLUMN "media_id" uuid;--> statement-breakpoint
UPDATE "content_locales" l SET "media_id" = c."media_id" FROM "contents" c WHERE c."id" = l."content_id";--> statement-breakpoint
ALTER TABLE "content_locales" ALTER COLUMN "media_id" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "profile_locales_search_idx" ON "profile_locales" USING gin ("media_id","search") WHERE "profile_locales"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "content_locales_search_idx" ON "content_locales" USING gin ("media_id","search") WHERE "content_locales"."deleted_at" is null;
