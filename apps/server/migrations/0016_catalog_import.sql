CREATE TABLE "catalog_import_rows" (
	"import_id" uuid NOT NULL,
	"row_number" integer NOT NULL,
	"sku" text,
	"action" text NOT NULL,
	"product_id" uuid,
	"data" jsonb,
	"before" jsonb,
	"cells" jsonb NOT NULL,
	"errors" jsonb,
	"applied_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "catalog_import_rows_import_id_row_number_pk" PRIMARY KEY("import_id","row_number"),
	CONSTRAINT "catalog_import_rows_action" CHECK ("catalog_import_rows"."action" IN ('create', 'update', 'unchanged', 'invalid'))
);
--> statement-breakpoint
CREATE TABLE "catalog_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seller_id" text NOT NULL,
	"seller_email" text NOT NULL,
	"status" text DEFAULT 'validating' NOT NULL,
	"reason" text,
	"file_name" text NOT NULL,
	"file" "bytea",
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"create_count" integer DEFAULT 0 NOT NULL,
	"update_count" integer DEFAULT 0 NOT NULL,
	"unchanged_count" integer DEFAULT 0 NOT NULL,
	"invalid_count" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"applied_at" timestamp with time zone,
	"undone_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "catalog_imports_status" CHECK ("catalog_imports"."status" IN ('validating', 'ready', 'applying', 'applied', 'failed', 'undone')),
	CONSTRAINT "catalog_imports_file_size" CHECK ("catalog_imports"."file" IS NULL OR octet_length("catalog_imports"."file") <= 52428800)
);
--> statement-breakpoint
ALTER TABLE "catalog_import_rows" ADD CONSTRAINT "catalog_import_rows_import_id_catalog_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."catalog_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_imports" ADD CONSTRAINT "catalog_imports_seller_id_user_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalog_import_rows_sku_idx" ON "catalog_import_rows" USING btree ("import_id",lower("sku"));--> statement-breakpoint
CREATE INDEX "catalog_import_rows_product_idx" ON "catalog_import_rows" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "catalog_imports_seller_created_idx" ON "catalog_imports" USING btree ("seller_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "catalog_imports_one_running_idx" ON "catalog_imports" USING btree ("seller_id") WHERE "catalog_imports"."status" IN ('validating', 'applying');--> statement-breakpoint
CREATE INDEX "catalog_imports_running_idx" ON "catalog_imports" USING btree ("created_at") WHERE "catalog_imports"."status" IN ('validating', 'applying');--> statement-breakpoint
CREATE INDEX "products_owner_id_seq_idx" ON "products" USING btree ("owner_id","seq");