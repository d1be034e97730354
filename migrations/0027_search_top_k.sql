-- Search at archive scale (issue 51): a relevance search ranks the newest matching entries of its media
-- (_recent_idx), and a small media's typo arm reads its own titles (_media_*_trgm_idx).
CREATE INDEX "profile_locales_media_name_trgm_idx" ON "profile_locales" USING gin ("media_id","name_text" gin_trgm_ops) WHERE "profile_locales"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "profile_locales_recent_idx" ON "profile_locales" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "profile_locales"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "content_locales_media_title_trgm_idx" ON "content_locales" USING gin ("media_id","title_text" gin_trgm_ops) WHERE "content_locales"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "content_locales_recent_idx" ON "content_locales" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "content_locales"."deleted_at" is null;