CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"key_id" uuid NOT NULL,
	"key_name" text NOT NULL,
	"operation_id" text NOT NULL,
	"action" text NOT NULL,
	"record_kind" text NOT NULL,
	"record_id" text,
	"fields" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_media_page_idx" ON "audit_log" USING btree ("media_id","inserted_at" desc,"id" desc);--> statement-breakpoint
CREATE INDEX "audit_log_media_record_idx" ON "audit_log" USING btree ("media_id","record_id","inserted_at" desc,"id" desc) WHERE "audit_log"."record_id" is not null;--> statement-breakpoint
CREATE INDEX "audit_log_inserted_at_idx" ON "audit_log" USING btree ("inserted_at");