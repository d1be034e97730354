ALTER TABLE "media" ADD COLUMN "site_url" text;--> statement-breakpoint
ALTER TABLE "rss_feeds" ADD COLUMN "site_url" text;