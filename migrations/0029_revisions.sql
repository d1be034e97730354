CREATE TABLE "revisions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"record_kind" text NOT NULL,
	"record_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"action" text NOT NULL,
	"key_id" uuid,
	"key_name" text NOT NULL,
	"operation_id" text NOT NULL,
	"note" text,
	"record" json NOT NULL,
	"rows" jsonb,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "revisions" ADD CONSTRAINT "revisions_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "revisions_record_number_uq" ON "revisions" USING btree ("record_kind","record_id","number");--> statement-breakpoint
CREATE INDEX "revisions_media_record_idx" ON "revisions" USING btree ("media_id","record_kind","record_id","number" desc);--> statement-breakpoint
CREATE INDEX "revisions_inserted_at_idx" ON "revisions" USING btree ("inserted_at");