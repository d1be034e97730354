CREATE TABLE "issue_types" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "block_slots" (
	"id" uuid PRIMARY KEY NOT NULL,
	"block_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"content_id" uuid NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "issue_locales" (
	"id" uuid PRIMARY KEY NOT NULL,
	"issue_id" uuid NOT NULL,
	"locale" text NOT NULL,
	"name" text NOT NULL,
	"description_html" text,
	"description_text" text,
	"visual_type" text DEFAULT 'none' NOT NULL,
	"visual_image_id" uuid,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "issues" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"issue_type_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"color" text NOT NULL,
	"pdf_file_key" text,
	"advertising_key" text,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "section_blocks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"section_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"position" integer NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "section_contents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"issue_id" uuid NOT NULL,
	"section_id" uuid NOT NULL,
	"content_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "section_locales" (
	"id" uuid PRIMARY KEY NOT NULL,
	"section_id" uuid NOT NULL,
	"locale" text NOT NULL,
	"name" text NOT NULL,
	"description_html" text,
	"description_text" text,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "sections" (
	"id" uuid PRIMARY KEY NOT NULL,
	"media_id" uuid NOT NULL,
	"issue_id" uuid NOT NULL,
	"key" text NOT NULL,
	"position" integer NOT NULL,
	"inserted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "issue_types" ADD CONSTRAINT "issue_types_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "block_slots" ADD CONSTRAINT "block_slots_block_id_section_blocks_id_fk" FOREIGN KEY ("block_id") REFERENCES "public"."section_blocks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_locales" ADD CONSTRAINT "issue_locales_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_issue_type_id_issue_types_id_fk" FOREIGN KEY ("issue_type_id") REFERENCES "public"."issue_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "section_blocks" ADD CONSTRAINT "section_blocks_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "section_blocks" ADD CONSTRAINT "section_blocks_section_id_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "section_contents" ADD CONSTRAINT "section_contents_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "section_contents" ADD CONSTRAINT "section_contents_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "section_contents" ADD CONSTRAINT "section_contents_section_id_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "section_locales" ADD CONSTRAINT "section_locales_section_id_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sections" ADD CONSTRAINT "sections_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sections" ADD CONSTRAINT "sections_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "issue_types_media_key_uq" ON "issue_types" USING btree ("media_id","key");--> statement-breakpoint
CREATE INDEX "issue_types_media_page_idx" ON "issue_types" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "block_slots_position_uq" ON "block_slots" USING btree ("block_id","position") WHERE "block_slots"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "issue_locales_live_uq" ON "issue_locales" USING btree ("issue_id","locale") WHERE "issue_locales"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "issues_workspace_page_idx" ON "issues" USING btree ("media_id","workspace_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "issues"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "issues_media_page_idx" ON "issues" USING btree ("media_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "issues"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "section_blocks_position_uq" ON "section_blocks" USING btree ("section_id","position") WHERE "section_blocks"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "section_contents_section_content_uq" ON "section_contents" USING btree ("section_id","content_id") WHERE "section_contents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "section_contents_section_position_idx" ON "section_contents" USING btree ("section_id","position","id") WHERE "section_contents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "section_contents_issue_page_idx" ON "section_contents" USING btree ("issue_id","inserted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "section_contents"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "section_locales_live_uq" ON "section_locales" USING btree ("section_id","locale") WHERE "section_locales"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "sections_issue_key_uq" ON "sections" USING btree ("issue_id","key") WHERE "sections"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "sections_issue_position_idx" ON "sections" USING btree ("issue_id","position","id") WHERE "sections"."deleted_at" is null;