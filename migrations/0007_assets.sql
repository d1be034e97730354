CREATE TABLE "asset_image_locales" (
	"id" uuid PRIMARY KEY NOT NULL,
	"image_id" uuid NOT NULL,
	"locale" text NOT NULL,
	"credit" text,
	"caption_html" text,
	"caption_text" text,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "asset_images" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"asset_id" uuid NOT NULL,
	"file_key" text NOT NULL,
	"file_hash" text NOT NULL,
	"name" text NOT NULL,
	"gravity" text DEFAULT 'center' NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "assets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"file_key" text NOT NULL,
	"file_hash" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "asset_image_locales" ADD CONSTRAINT "asset_image_locales_image_id_asset_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."asset_images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_images" ADD CONSTRAINT "asset_images_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_images" ADD CONSTRAINT "asset_images_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "asset_image_locales_live_uq" ON "asset_image_locales" USING btree ("image_id","locale") WHERE "asset_image_locales"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "asset_image_locales_image_idx" ON "asset_image_locales" USING btree ("image_id");--> statement-breakpoint
CREATE INDEX "asset_images_media_page_idx" ON "asset_images" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "asset_images"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "asset_images_media_key_idx" ON "asset_images" USING btree ("media_id","file_key","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "asset_images"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "asset_images_media_hash_idx" ON "asset_images" USING btree ("media_id","file_hash","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "asset_images"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "asset_images_asset_idx" ON "asset_images" USING btree ("asset_id");--> statement-breakpoint
CREATE UNIQUE INDEX "assets_media_hash_uq" ON "assets" USING btree ("media_id","file_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "assets_file_key_uq" ON "assets" USING btree ("file_key");