CREATE TABLE "reader_profile_metadata" (
	"id" uuid PRIMARY KEY NOT NULL,
	"profile_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reader_profiles" (
	"id" uuid PRIMARY KEY NOT NULL,
	"reader_id" uuid NOT NULL,
	"first_name" text,
	"last_name" text,
	"other_name" text,
	"pronoun" text,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reader_profiles_reader_uq" UNIQUE("reader_id")
);
--> statement-breakpoint
CREATE TABLE "readers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"sub" text NOT NULL,
	"email" text,
	"name" text,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reader_devices" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"reader_id" uuid NOT NULL,
	"token" text NOT NULL,
	"platform" text NOT NULL,
	"name" text,
	"last_registered_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reader_entitlements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"reader_id" uuid NOT NULL,
	"product_key" text NOT NULL,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"ends_at" timestamp (3) with time zone,
	"revoked_at" timestamp (3) with time zone,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reader_entitlements_window_ck" CHECK ("reader_entitlements"."ends_at" is null or "reader_entitlements"."ends_at" > "reader_entitlements"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "reader_invitations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"email" text NOT NULL,
	"product_key" text,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reader_favorites" (
	"id" uuid PRIMARY KEY NOT NULL,
	"reader_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"record_id" uuid NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "reader_favorites_kind_ck" CHECK ("reader_favorites"."kind" in ('content', 'profile'))
);
--> statement-breakpoint
CREATE TABLE "reader_topic_subscriptions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"reader_id" uuid NOT NULL,
	"topic_id" uuid NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "reader_profile_metadata" ADD CONSTRAINT "reader_profile_metadata_profile_id_reader_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."reader_profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reader_profiles" ADD CONSTRAINT "reader_profiles_reader_id_readers_id_fk" FOREIGN KEY ("reader_id") REFERENCES "public"."readers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "readers" ADD CONSTRAINT "readers_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "readers" ADD CONSTRAINT "readers_provider_id_oauth_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."oauth_providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reader_devices" ADD CONSTRAINT "reader_devices_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reader_devices" ADD CONSTRAINT "reader_devices_reader_id_readers_id_fk" FOREIGN KEY ("reader_id") REFERENCES "public"."readers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reader_entitlements" ADD CONSTRAINT "reader_entitlements_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reader_entitlements" ADD CONSTRAINT "reader_entitlements_reader_id_readers_id_fk" FOREIGN KEY ("reader_id") REFERENCES "public"."readers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reader_invitations" ADD CONSTRAINT "reader_invitations_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reader_favorites" ADD CONSTRAINT "reader_favorites_reader_id_readers_id_fk" FOREIGN KEY ("reader_id") REFERENCES "public"."readers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reader_topic_subscriptions" ADD CONSTRAINT "reader_topic_subscriptions_reader_id_readers_id_fk" FOREIGN KEY ("reader_id") REFERENCES "public"."readers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reader_topic_subscriptions" ADD CONSTRAINT "reader_topic_subscriptions_topic_id_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."topics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reader_profile_metadata_key_uq" ON "reader_profile_metadata" USING btree ("profile_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "readers_identity_uq" ON "readers" USING btree ("media_id","provider_id","sub");--> statement-breakpoint
CREATE INDEX "readers_media_page_idx" ON "readers" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "readers_media_email_idx" ON "readers" USING btree ("media_id",lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "reader_devices_media_token_uq" ON "reader_devices" USING btree ("media_id","token");--> statement-breakpoint
CREATE INDEX "reader_devices_reader_idx" ON "reader_devices" USING btree ("reader_id");--> statement-breakpoint
CREATE INDEX "reader_entitlements_media_page_idx" ON "reader_entitlements" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "reader_entitlements_reader_page_idx" ON "reader_entitlements" USING btree ("reader_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "reader_invitations_media_page_idx" ON "reader_invitations" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "reader_favorites_live_uq" ON "reader_favorites" USING btree ("reader_id","kind","record_id") WHERE "reader_favorites"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "reader_favorites_reader_page_idx" ON "reader_favorites" USING btree ("reader_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "reader_favorites"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "reader_topic_subscriptions_live_uq" ON "reader_topic_subscriptions" USING btree ("reader_id","topic_id") WHERE "reader_topic_subscriptions"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "reader_topic_subscriptions_reader_page_idx" ON "reader_topic_subscriptions" USING btree ("reader_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "reader_topic_subscriptions"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "reader_topic_subscriptions_topic_idx" ON "reader_topic_subscriptions" USING btree ("topic_id") WHERE "reader_topic_subscriptions"."deleted_at" is null;