ALTER TABLE "user" ADD COLUMN "owner_proven_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "carries_secret" boolean DEFAULT false NOT NULL;