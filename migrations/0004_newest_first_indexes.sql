DROP INDEX "statuses_media_page_idx";--> statement-breakpoint
DROP INDEX "workspaces_media_page_idx";--> statement-breakpoint
DROP INDEX "api_keys_media_page_idx";--> statement-breakpoint
DROP INDEX "oauth_clients_media_page_idx";--> statement-breakpoint
DROP INDEX "oauth_providers_media_page_idx";--> statement-breakpoint
DROP INDEX "profile_types_media_page_idx";--> statement-breakpoint
CREATE INDEX "statuses_media_page_idx" ON "statuses" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "workspaces_media_page_idx" ON "workspaces" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "api_keys_media_page_idx" ON "api_keys" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "oauth_clients_media_page_idx" ON "oauth_clients" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "oauth_providers_media_page_idx" ON "oauth_providers" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "profile_types_media_page_idx" ON "profile_types" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST);