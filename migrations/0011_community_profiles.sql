CREATE TABLE "event_registrations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"reader" text NOT NULL,
	"display_name" text,
	"listed" boolean DEFAULT false NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_schedules" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"starts_at" timestamp (3) with time zone,
	"ends_at" timestamp (3) with time zone,
	"starts_local" text,
	"rrule" text,
	"duration_minutes" integer,
	"first_at" timestamp (3) with time zone NOT NULL,
	"last_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "profile_addresses" (
	"id" uuid PRIMARY KEY NOT NULL,
	"profile_id" uuid NOT NULL,
	"locale" text NOT NULL,
	"country" text,
	"state" text,
	"city" text,
	"street" text,
	"location" text,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "profile_block_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"block_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"content_id" uuid NOT NULL,
	"relation_id" uuid,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "profile_block_locales" (
	"id" uuid PRIMARY KEY NOT NULL,
	"block_id" uuid NOT NULL,
	"locale" text NOT NULL,
	"title" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profile_blocks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"profile_id" uuid NOT NULL,
	"key" text NOT NULL,
	"position" integer NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "profile_categories" (
	"id" uuid PRIMARY KEY NOT NULL,
	"profile_id" uuid NOT NULL,
	"category_id" uuid NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profile_contacts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"profile_id" uuid NOT NULL,
	"locale" text NOT NULL,
	"email" text,
	"phone" text,
	"facebook" text,
	"linkedin" text,
	"instagram" text,
	"twitter" text,
	"bluesky" text,
	"website" text,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "profile_description_blocks" (
	"description_id" uuid NOT NULL,
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
CREATE TABLE "profile_descriptions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"profile_id" uuid NOT NULL,
	"locale" text NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "profile_locales" (
	"id" uuid PRIMARY KEY NOT NULL,
	"profile_id" uuid NOT NULL,
	"locale" text NOT NULL,
	"summary_html" text,
	"summary_text" text,
	"description_html" text,
	"description_text" text,
	"name_text" text DEFAULT '' NOT NULL,
	"search_config" text NOT NULL,
	"search" "tsvector",
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "profile_metadata" (
	"id" uuid PRIMARY KEY NOT NULL,
	"profile_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"workspace_id" uuid NOT NULL,
	"status_id" uuid NOT NULL,
	"profile_type_id" uuid NOT NULL,
	"canonical_url" text,
	"canonical_domain" text,
	"cover_image_key" text,
	"profile_image_key" text,
	"first_name" text,
	"last_name" text,
	"other_name" text,
	"pronoun" text,
	"name" text,
	"legal_name" text,
	"starts_on" date,
	"ends_on" date,
	"capacity" integer,
	"registration_open" boolean,
	"time_zone" text,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
DROP INDEX "profile_types_media_key_uq";--> statement-breakpoint
ALTER TABLE "profile_types" ADD COLUMN "deleted_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "event_registrations" ADD CONSTRAINT "event_registrations_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_registrations" ADD CONSTRAINT "event_registrations_event_id_profiles_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_schedules" ADD CONSTRAINT "event_schedules_event_id_profiles_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_addresses" ADD CONSTRAINT "profile_addresses_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_block_entries" ADD CONSTRAINT "profile_block_entries_block_id_profile_blocks_id_fk" FOREIGN KEY ("block_id") REFERENCES "public"."profile_blocks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_block_locales" ADD CONSTRAINT "profile_block_locales_block_id_profile_blocks_id_fk" FOREIGN KEY ("block_id") REFERENCES "public"."profile_blocks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_blocks" ADD CONSTRAINT "profile_blocks_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_categories" ADD CONSTRAINT "profile_categories_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_categories" ADD CONSTRAINT "profile_categories_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_contacts" ADD CONSTRAINT "profile_contacts_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_description_blocks" ADD CONSTRAINT "profile_description_blocks_description_id_profile_descriptions_id_fk" FOREIGN KEY ("description_id") REFERENCES "public"."profile_descriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_descriptions" ADD CONSTRAINT "profile_descriptions_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_locales" ADD CONSTRAINT "profile_locales_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_metadata" ADD CONSTRAINT "profile_metadata_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_status_id_statuses_id_fk" FOREIGN KEY ("status_id") REFERENCES "public"."statuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_profile_type_id_profile_types_id_fk" FOREIGN KEY ("profile_type_id") REFERENCES "public"."profile_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_registrations_event_reader_uq" ON "event_registrations" USING btree ("event_id","reader");--> statement-breakpoint
CREATE INDEX "event_registrations_listed_idx" ON "event_registrations" USING btree ("event_id","display_name","id") WHERE "event_registrations"."listed";--> statement-breakpoint
CREATE INDEX "event_schedules_event_idx" ON "event_schedules" USING btree ("event_id","position");--> statement-breakpoint
CREATE INDEX "event_schedules_range_idx" ON "event_schedules" USING btree ("first_at","last_at");--> statement-breakpoint
CREATE UNIQUE INDEX "profile_addresses_live_uq" ON "profile_addresses" USING btree ("profile_id","locale") WHERE "profile_addresses"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "profile_addresses_profile_idx" ON "profile_addresses" USING btree ("profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "profile_block_entries_position_uq" ON "profile_block_entries" USING btree ("block_id","position") WHERE "profile_block_entries"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "profile_block_locales_uq" ON "profile_block_locales" USING btree ("block_id","locale");--> statement-breakpoint
CREATE UNIQUE INDEX "profile_blocks_position_uq" ON "profile_blocks" USING btree ("profile_id","position") WHERE "profile_blocks"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "profile_categories_profile_category_uq" ON "profile_categories" USING btree ("profile_id","category_id");--> statement-breakpoint
CREATE INDEX "profile_categories_category_idx" ON "profile_categories" USING btree ("category_id","profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "profile_contacts_live_uq" ON "profile_contacts" USING btree ("profile_id","locale") WHERE "profile_contacts"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "profile_contacts_profile_idx" ON "profile_contacts" USING btree ("profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "profile_description_blocks_position_uq" ON "profile_description_blocks" USING btree ("description_id","position") WHERE "profile_description_blocks"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "profile_descriptions_live_uq" ON "profile_descriptions" USING btree ("profile_id","locale") WHERE "profile_descriptions"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "profile_descriptions_profile_idx" ON "profile_descriptions" USING btree ("profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "profile_locales_live_uq" ON "profile_locales" USING btree ("profile_id","locale") WHERE "profile_locales"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "profile_locales_profile_idx" ON "profile_locales" USING btree ("profile_id");--> statement-breakpoint
CREATE INDEX "profile_locales_search_idx" ON "profile_locales" USING gin ("search") WHERE "profile_locales"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "profile_locales_name_trgm_idx" ON "profile_locales" USING gin ("name_text" gin_trgm_ops) WHERE "profile_locales"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "profile_metadata_key_uq" ON "profile_metadata" USING btree ("profile_id","key");--> statement-breakpoint
CREATE INDEX "profiles_media_kind_page_idx" ON "profiles" USING btree ("media_id","kind","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "profiles"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "profiles_profile_type_idx" ON "profiles" USING btree ("profile_type_id");--> statement-breakpoint
CREATE UNIQUE INDEX "profile_types_media_key_live_uq" ON "profile_types" USING btree ("media_id","key") WHERE "profile_types"."deleted_at" is null;