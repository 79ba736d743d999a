CREATE TABLE "business_documents" (
	"profile_id" uuid PRIMARY KEY NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "business_documents_size" CHECK (octet_length("business_documents"."bytes") BETWEEN 1 AND 5242880)
);
--> statement-breakpoint
ALTER TABLE "business_profiles" ADD COLUMN "revision" text DEFAULT md5(gen_random_uuid()::text) NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_audit" ADD COLUMN "revision" text;--> statement-breakpoint
ALTER TABLE "business_documents" ADD CONSTRAINT "business_documents_profile_id_business_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."business_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The documents move out of the profile rows before the column goes (decision 016).
INSERT INTO "business_documents" ("profile_id", "bytes", "created_at", "updated_at")
SELECT "id", "document", coalesce("document_uploaded_at", now()), coalesce("document_uploaded_at", now())
FROM "business_profiles" WHERE "document" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "business_profiles" DROP COLUMN "document";
