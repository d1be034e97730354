CREATE TABLE "profile_types" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"has_phone" boolean DEFAULT false NOT NULL,
	"has_email" boolean DEFAULT false NOT NULL,
	"has_bluesky" boolean DEFAULT false NOT NULL,
	"has_linkedin" boolean DEFAULT false NOT NULL,
	"has_website" boolean DEFAULT false NOT NULL,
	"has_facebook" boolean DEFAULT false NOT NULL,
	"has_twitter" boolean DEFAULT false NOT NULL,
	"has_instagram" boolean DEFAULT false NOT NULL,
	"has_country" boolean DEFAULT false NOT NULL,
	"has_state" boolean DEFAULT false NOT NULL,
	"has_city" boolean DEFAULT false NOT NULL,
	"has_street" boolean DEFAULT false NOT NULL,
	"has_location" boolean DEFAULT false NOT NULL,
	"metadata" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "topics" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "profile_types" ADD CONSTRAINT "profile_types_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topics" ADD CONSTRAINT "topics_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "profile_types_media_key_uq" ON "profile_types" USING btree ("media_id","key");--> statement-breakpoint
CREATE INDEX "profile_types_media_page_idx" ON "profile_types" USING btree ("media_id","inserted_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "topics_media_key_uq" ON "topics" USING btree ("media_id","key");--> statement-breakpoint
CREATE INDEX "topics_media_page_idx" ON "topics" USING btree ("media_id","inserted_at","id");