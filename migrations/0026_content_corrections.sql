CREATE TABLE "content_corrections" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"content_id" uuid NOT NULL,
	"locale" text NOT NULL,
	"note_html" text NOT NULL,
	"note_text" text NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "content_corrections" ADD CONSTRAINT "content_corrections_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_corrections" ADD CONSTRAINT "content_corrections_content_id_contents_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."contents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "content_corrections_content_idx" ON "content_corrections" USING btree ("content_id","locale","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "content_corrections"."deleted_at" is null;