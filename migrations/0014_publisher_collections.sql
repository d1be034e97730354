CREATE TABLE "ad_categories" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"name" text NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "ads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"advertiser_id" uuid NOT NULL,
	"name" text NOT NULL,
	"priority" integer NOT NULL,
	"business_reference" text,
	"category_id" uuid NOT NULL,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"ends_at" timestamp (3) with time zone NOT NULL,
	"timezone" text NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ads_window_ck" CHECK ("ads"."ends_at" > "ads"."starts_at"),
	CONSTRAINT "ads_priority_ck" CHECK ("ads"."priority" between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "advertisers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"name" text NOT NULL,
	"contact_email" text,
	"website" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ad_creatives" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"ad_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"click_url" text NOT NULL,
	"alt_text" text,
	"width" integer,
	"height" integer,
	"html" text,
	"image_id" uuid,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "ad_creatives_kind_ck" CHECK ("ad_creatives"."kind" in ('image', 'html'))
);
--> statement-breakpoint
CREATE TABLE "ad_placements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"ad_id" uuid NOT NULL,
	"target" text NOT NULL,
	"issue_id" uuid,
	"position" text,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ad_placements_place_uq" UNIQUE NULLS NOT DISTINCT("ad_id","issue_id","position"),
	CONSTRAINT "ad_placements_target_ck" CHECK (("ad_placements"."target" = 'media' and "ad_placements"."issue_id" is null) or ("ad_placements"."target" = 'issue' and "ad_placements"."issue_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "announcement_locales" (
	"id" uuid PRIMARY KEY NOT NULL,
	"announcement_id" uuid NOT NULL,
	"locale" text NOT NULL,
	"title" text NOT NULL,
	"body_html" text,
	"body_text" text,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "announcements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"organization_id" uuid,
	"starts_at" timestamp (3) with time zone,
	"ends_at" timestamp (3) with time zone,
	"link_url" text
);
--> statement-breakpoint
CREATE TABLE "distribution_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"distribution_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"role" text NOT NULL,
	"profile_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "distribution_locales" (
	"id" uuid PRIMARY KEY NOT NULL,
	"distribution_id" uuid NOT NULL,
	"locale" text NOT NULL,
	"title" text,
	"role_names" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "distributions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"organization_id" uuid NOT NULL,
	"event_id" uuid,
	"project_id" uuid
);
--> statement-breakpoint
CREATE TABLE "media_block_locales" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_block_id" uuid NOT NULL,
	"locale" text NOT NULL,
	"content_html" text NOT NULL,
	"content_text" text NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "media_blocks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"key" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "menu_locales" (
	"id" uuid PRIMARY KEY NOT NULL,
	"menu_id" uuid NOT NULL,
	"locale" text NOT NULL,
	"items" jsonb NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "menus" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"key" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publications" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"content_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"external_url" text,
	"published_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "release_locales" (
	"id" uuid PRIMARY KEY NOT NULL,
	"release_id" uuid NOT NULL,
	"locale" text NOT NULL,
	"title" text NOT NULL,
	"description_html" text,
	"description_text" text,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "releases" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"organization_id" uuid,
	"project_id" uuid,
	"released_on" date NOT NULL,
	"cover_image_key" text,
	"links" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rss_feed_locales" (
	"id" uuid PRIMARY KEY NOT NULL,
	"rss_feed_id" uuid NOT NULL,
	"locale" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "rss_feeds" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"key" text NOT NULL,
	"category_ids" uuid[] DEFAULT '{}' NOT NULL,
	"template_ids" uuid[] DEFAULT '{}' NOT NULL,
	"item_limit" integer DEFAULT 20 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webpage_locales" (
	"id" uuid PRIMARY KEY NOT NULL,
	"webpage_id" uuid NOT NULL,
	"locale" text NOT NULL,
	"title" text NOT NULL,
	"body_html" text NOT NULL,
	"body_text" text NOT NULL,
	"seo" jsonb,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "webpages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"key" text NOT NULL,
	"organization_id" uuid,
	"status_id" uuid NOT NULL
);
--> statement-breakpoint
DROP INDEX "topics_media_key_uq";--> statement-breakpoint
ALTER TABLE "topics" ADD COLUMN "deleted_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "ad_categories" ADD CONSTRAINT "ad_categories_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_advertiser_id_advertisers_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."advertisers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_category_id_ad_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."ad_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advertisers" ADD CONSTRAINT "advertisers_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_creatives" ADD CONSTRAINT "ad_creatives_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_creatives" ADD CONSTRAINT "ad_creatives_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_creatives" ADD CONSTRAINT "ad_creatives_image_id_asset_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."asset_images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_placements" ADD CONSTRAINT "ad_placements_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_placements" ADD CONSTRAINT "ad_placements_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcement_locales" ADD CONSTRAINT "announcement_locales_announcement_id_announcements_id_fk" FOREIGN KEY ("announcement_id") REFERENCES "public"."announcements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distribution_entries" ADD CONSTRAINT "distribution_entries_distribution_id_distributions_id_fk" FOREIGN KEY ("distribution_id") REFERENCES "public"."distributions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distribution_locales" ADD CONSTRAINT "distribution_locales_distribution_id_distributions_id_fk" FOREIGN KEY ("distribution_id") REFERENCES "public"."distributions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distributions" ADD CONSTRAINT "distributions_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_block_locales" ADD CONSTRAINT "media_block_locales_media_block_id_media_blocks_id_fk" FOREIGN KEY ("media_block_id") REFERENCES "public"."media_blocks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_blocks" ADD CONSTRAINT "media_blocks_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_locales" ADD CONSTRAINT "menu_locales_menu_id_menus_id_fk" FOREIGN KEY ("menu_id") REFERENCES "public"."menus"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menus" ADD CONSTRAINT "menus_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_locales" ADD CONSTRAINT "release_locales_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rss_feed_locales" ADD CONSTRAINT "rss_feed_locales_rss_feed_id_rss_feeds_id_fk" FOREIGN KEY ("rss_feed_id") REFERENCES "public"."rss_feeds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rss_feeds" ADD CONSTRAINT "rss_feeds_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webpage_locales" ADD CONSTRAINT "webpage_locales_webpage_id_webpages_id_fk" FOREIGN KEY ("webpage_id") REFERENCES "public"."webpages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webpages" ADD CONSTRAINT "webpages_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webpages" ADD CONSTRAINT "webpages_status_id_statuses_id_fk" FOREIGN KEY ("status_id") REFERENCES "public"."statuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ad_categories_media_name_uq" ON "ad_categories" USING btree ("media_id","name") WHERE "ad_categories"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "ad_categories_media_page_idx" ON "ad_categories" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "ad_categories"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "ads_advertiser_page_idx" ON "ads" USING btree ("media_id","advertiser_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ads_running_idx" ON "ads" USING btree ("media_id","ends_at","starts_at");--> statement-breakpoint
CREATE INDEX "ads_category_idx" ON "ads" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "advertisers_media_page_idx" ON "advertisers" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ad_creatives_ad_idx" ON "ad_creatives" USING btree ("ad_id","inserted_at","id") WHERE "ad_creatives"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "ad_placements_ad_page_idx" ON "ad_placements" USING btree ("ad_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "announcement_locales_live_uq" ON "announcement_locales" USING btree ("announcement_id","locale") WHERE "announcement_locales"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "announcements_media_page_idx" ON "announcements" USING btree ("media_id","inserted_at" desc,"id" desc) WHERE "announcements"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "announcements_organization_idx" ON "announcements" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "distribution_entries_position_uq" ON "distribution_entries" USING btree ("distribution_id","position");--> statement-breakpoint
CREATE INDEX "distribution_entries_profile_idx" ON "distribution_entries" USING btree ("profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "distribution_locales_live_uq" ON "distribution_locales" USING btree ("distribution_id","locale") WHERE "distribution_locales"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "distributions_media_page_idx" ON "distributions" USING btree ("media_id","inserted_at" desc,"id" desc) WHERE "distributions"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "distributions_event_idx" ON "distributions" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "distributions_project_idx" ON "distributions" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "media_block_locales_live_uq" ON "media_block_locales" USING btree ("media_block_id","locale") WHERE "media_block_locales"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "media_blocks_media_page_idx" ON "media_blocks" USING btree ("media_id","inserted_at" desc,"id" desc) WHERE "media_blocks"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "media_blocks_media_key_uq" ON "media_blocks" USING btree ("media_id","key") WHERE "media_blocks"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "menu_locales_live_uq" ON "menu_locales" USING btree ("menu_id","locale") WHERE "menu_locales"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "menus_media_page_idx" ON "menus" USING btree ("media_id","inserted_at" desc,"id" desc) WHERE "menus"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "menus_media_key_uq" ON "menus" USING btree ("media_id","key") WHERE "menus"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "publications_media_page_idx" ON "publications" USING btree ("media_id","inserted_at" desc,"id" desc) WHERE "publications"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "publications_content_idx" ON "publications" USING btree ("content_id");--> statement-breakpoint
CREATE UNIQUE INDEX "release_locales_live_uq" ON "release_locales" USING btree ("release_id","locale") WHERE "release_locales"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "releases_media_page_idx" ON "releases" USING btree ("media_id","inserted_at" desc,"id" desc) WHERE "releases"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "releases_organization_idx" ON "releases" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "releases_project_idx" ON "releases" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rss_feed_locales_live_uq" ON "rss_feed_locales" USING btree ("rss_feed_id","locale") WHERE "rss_feed_locales"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "rss_feeds_media_page_idx" ON "rss_feeds" USING btree ("media_id","inserted_at" desc,"id" desc) WHERE "rss_feeds"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "rss_feeds_media_key_uq" ON "rss_feeds" USING btree ("media_id","key") WHERE "rss_feeds"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "webpage_locales_live_uq" ON "webpage_locales" USING btree ("webpage_id","locale") WHERE "webpage_locales"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "webpages_media_page_idx" ON "webpages" USING btree ("media_id","inserted_at" desc,"id" desc) WHERE "webpages"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "webpages_media_key_uq" ON "webpages" USING btree ("media_id","key") WHERE "webpages"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "webpages_status_idx" ON "webpages" USING btree ("status_id");--> statement-breakpoint
CREATE UNIQUE INDEX "topics_media_live_key_uq" ON "topics" USING btree ("media_id","key") WHERE "topics"."deleted_at" is null;