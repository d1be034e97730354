CREATE TABLE "reader_meter_opens" (
	"media_id" uuid NOT NULL,
	"reader_id" uuid NOT NULL,
	"period" integer NOT NULL,
	"content_id" uuid NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reader_meter_opens_pk" PRIMARY KEY("reader_id","period","content_id")
);
--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "meter_limit" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "meter_period_days" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "contents" ADD COLUMN "visibility" text DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "contents" ADD COLUMN "product_keys" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "reader_meter_opens" ADD CONSTRAINT "reader_meter_opens_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reader_meter_opens" ADD CONSTRAINT "reader_meter_opens_reader_id_readers_id_fk" FOREIGN KEY ("reader_id") REFERENCES "public"."readers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contents" ADD CONSTRAINT "contents_visibility_ck" CHECK ("contents"."visibility" in ('public', 'registered', 'subscribers'));