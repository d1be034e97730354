-- Trigram similarity for typo-tolerant search on titles (PGlite loads the same extension).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "content_types" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "content_authors" (
	"id" uuid PRIMARY KEY NOT NULL,
	"locale_id" uuid NOT NULL,
	"profile_id" uuid NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_blocks" (
	"locale_id" uuid NOT NULL,
	"id" uuid PRIMARY KEY NOT NULL,
	"locale" text,
	"kind" text NOT NULL,
	"position" integer NOT NULL,
	"fields" jsonb NOT NULL,
	"asset_image_ids" uuid[],
	"search_text" text DEFAULT '' NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "content_categories" (
	"id" uuid PRIMARY KEY NOT NULL,
	"content_id" uuid NOT NULL,
	"category_id" uuid NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_locales" (
	"id" uuid PRIMARY KEY NOT NULL,
	"content_id" uuid NOT NULL,
	"locale" text NOT NULL,
	"location" text,
	"title_html" text NOT NULL,
	"title_text" text NOT NULL,
	"subtitle_html" text,
	"subtitle_text" text,
	"lead_html" text,
	"lead_text" text,
	"seo_title" text,
	"seo_description" text,
	"visual_id" uuid NOT NULL,
	"visual_type" text DEFAULT 'none' NOT NULL,
	"visual_image_ids" uuid[],
	"visual_video" jsonb,
	"search_config" text NOT NULL,
	"search" "tsvector",
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "content_metadata" (
	"id" uuid PRIMARY KEY NOT NULL,
	"content_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"status_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	"canonical_url" text,
	"canonical_domain" text,
	"is_archived" boolean DEFAULT false NOT NULL,
	"show_publication_datetime" boolean DEFAULT true NOT NULL,
	"is_advertising" boolean DEFAULT false NOT NULL,
	"is_sponsored" boolean DEFAULT false NOT NULL,
	"published_at" timestamp (3) with time zone,
	"released_at" timestamp (3) with time zone,
	"released_at_timezone" text,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "question_votes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"block_id" uuid NOT NULL,
	"voter" text NOT NULL,
	"choice_id" uuid NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"content_type_id" uuid NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"block_kinds" text[] DEFAULT '{}'::text[] NOT NULL,
	"metadata_keys" text[] DEFAULT '{}'::text[] NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "content_types" ADD CONSTRAINT "content_types_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_authors" ADD CONSTRAINT "content_authors_locale_id_content_locales_id_fk" FOREIGN KEY ("locale_id") REFERENCES "public"."content_locales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_blocks" ADD CONSTRAINT "content_blocks_locale_id_content_locales_id_fk" FOREIGN KEY ("locale_id") REFERENCES "public"."content_locales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_categories" ADD CONSTRAINT "content_categories_content_id_contents_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."contents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_categories" ADD CONSTRAINT "content_categories_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_locales" ADD CONSTRAINT "content_locales_content_id_contents_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."contents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_metadata" ADD CONSTRAINT "content_metadata_content_id_contents_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."contents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contents" ADD CONSTRAINT "contents_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contents" ADD CONSTRAINT "contents_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contents" ADD CONSTRAINT "contents_status_id_statuses_id_fk" FOREIGN KEY ("status_id") REFERENCES "public"."statuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contents" ADD CONSTRAINT "contents_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_votes" ADD CONSTRAINT "question_votes_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_votes" ADD CONSTRAINT "question_votes_block_id_content_blocks_id_fk" FOREIGN KEY ("block_id") REFERENCES "public"."content_blocks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_content_type_id_content_types_id_fk" FOREIGN KEY ("content_type_id") REFERENCES "public"."content_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "content_types_media_key_uq" ON "content_types" USING btree ("media_id","key") WHERE "content_types"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "content_types_media_page_idx" ON "content_types" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "content_types"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "content_authors_locale_profile_uq" ON "content_authors" USING btree ("locale_id","profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "content_blocks_position_uq" ON "content_blocks" USING btree ("locale_id","position") WHERE "content_blocks"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "content_categories_content_category_uq" ON "content_categories" USING btree ("content_id","category_id");--> statement-breakpoint
CREATE INDEX "content_categories_category_idx" ON "content_categories" USING btree ("category_id","content_id");--> statement-breakpoint
CREATE UNIQUE INDEX "content_locales_live_uq" ON "content_locales" USING btree ("content_id","locale") WHERE "content_locales"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "content_locales_content_idx" ON "content_locales" USING btree ("content_id");--> statement-breakpoint
CREATE INDEX "content_locales_search_idx" ON "content_locales" USING gin ("search") WHERE "content_locales"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "content_locales_title_trgm_idx" ON "content_locales" USING gin ("title_text" gin_trgm_ops) WHERE "content_locales"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "content_metadata_key_uq" ON "content_metadata" USING btree ("content_id","key");--> statement-breakpoint
CREATE INDEX "contents_media_page_idx" ON "contents" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "contents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "contents_media_updated_idx" ON "contents" USING btree ("media_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "contents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "contents_media_published_idx" ON "contents" USING btree ("media_id",coalesce("published_at", '1970-01-01T00:00:00Z'::timestamptz) desc nulls last,"id" desc nulls last) WHERE "contents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "contents_reader_idx" ON "contents" USING btree ("media_id","published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "contents"."deleted_at" is null and "contents"."is_archived" = false and "contents"."published_at" is not null;--> statement-breakpoint
CREATE INDEX "contents_template_idx" ON "contents" USING btree ("template_id");--> statement-breakpoint
CREATE UNIQUE INDEX "question_votes_block_voter_uq" ON "question_votes" USING btree ("block_id","voter");--> statement-breakpoint
CREATE UNIQUE INDEX "templates_media_key_uq" ON "templates" USING btree ("media_id","key") WHERE "templates"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "templates_media_page_idx" ON "templates" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "templates"."deleted_at" is null;