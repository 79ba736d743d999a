CREATE SEQUENCE "public"."business_queue_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "business_profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"legal_name" text NOT NULL,
	"business_type" text NOT NULL,
	"permit_number" text NOT NULL,
	"permit_region" text NOT NULL,
	"permit_expires" date NOT NULL,
	"address" jsonb NOT NULL,
	"status" text DEFAULT 'none' NOT NULL,
	"reason" text,
	"document" "bytea",
	"document_type" text,
	"document_name" text,
	"document_size" integer,
	"document_uploaded_at" timestamp with time zone,
	"queue_seq" bigint,
	"submitted_at" timestamp with time zone,
	"reviewed_at" timestamp with time zone,
	"expiry_warned_for" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "business_profiles_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "business_profiles_status_known" CHECK ("business_profiles"."status" IN ('none', 'pending', 'verified', 'rejected', 'expired')),
	CONSTRAINT "business_profiles_type_known" CHECK ("business_profiles"."business_type" IN ('retail_store', 'online_seller', 'other')),
	CONSTRAINT "business_profiles_document_size" CHECK ("business_profiles"."document_size" IS NULL OR "business_profiles"."document_size" BETWEEN 1 AND 5242880)
);
--> statement-breakpoint
CREATE TABLE "verification_audit" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "verification_audit_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text NOT NULL,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"verification_id" uuid NOT NULL,
	"subject_email" text NOT NULL,
	"reason" text,
	CONSTRAINT "verification_audit_seq_unique" UNIQUE("seq"),
	CONSTRAINT "verification_audit_action_known" CHECK ("verification_audit"."action" IN ('approve', 'reject'))
);
--> statement-breakpoint
ALTER TABLE "business_profiles" ADD CONSTRAINT "business_profiles_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "business_profiles_queue_idx" ON "business_profiles" USING btree ("status","queue_seq");--> statement-breakpoint
CREATE INDEX "business_profiles_expiry_idx" ON "business_profiles" USING btree ("status","permit_expires");--> statement-breakpoint
ALTER TABLE "notifications" ALTER COLUMN "order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ALTER COLUMN "order_number" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ALTER COLUMN "order_status" DROP NOT NULL;
