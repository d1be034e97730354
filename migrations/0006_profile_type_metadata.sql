CREATE TABLE "profile_type_metadata" (
	"id" uuid PRIMARY KEY NOT NULL,
	"profile_type_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "profile_type_metadata" ADD CONSTRAINT "profile_type_metadata_profile_type_id_profile_types_id_fk" FOREIGN KEY ("profile_type_id") REFERENCES "public"."profile_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "profile_type_metadata_key_uq" ON "profile_type_metadata" USING btree ("profile_type_id","key");--> statement-breakpoint
-- Hand-written: the jsonb metadata of existing profile types moves into the new table, in
-- array order (position = ordinality - 1), before the column goes. Entries without a key are
-- dropped, a missing value becomes ''; a repeated key keeps its first entry.
INSERT INTO "profile_type_metadata" ("id", "profile_type_id", "position", "key", "value")
SELECT gen_random_uuid(), "pt"."id", ("e"."ordinality" - 1)::integer, "e"."entry"->>'key', coalesce("e"."entry"->>'value', '')
FROM "profile_types" "pt"
CROSS JOIN LATERAL jsonb_array_elements(
	CASE WHEN jsonb_typeof("pt"."metadata") = 'array' THEN "pt"."metadata" ELSE '[]'::jsonb END
) WITH ORDINALITY AS "e"("entry", "ordinality")
WHERE "e"."entry"->>'key' IS NOT NULL
ORDER BY "pt"."id", "e"."ordinality"
ON CONFLICT ("profile_type_id", "key") DO NOTHING;--> statement-breakpoint
ALTER TABLE "profile_types" DROP COLUMN "metadata";