CREATE TABLE "preview_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"content_id" uuid,
	"as_of" timestamp (3) with time zone,
	"token_hash" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "preview_tokens" ADD CONSTRAINT "preview_tokens_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "preview_tokens_token_hash_uq" ON "preview_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "preview_tokens_content_page_idx" ON "preview_tokens" USING btree ("media_id","content_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST);