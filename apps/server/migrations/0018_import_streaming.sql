-- Catalog imports stream (docs/decisions/018-catalog-import.md): the upload is stored in pieces as it
-- arrives instead of one bytea value read whole into memory.
CREATE TABLE "catalog_import_chunks" (
	"import_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "catalog_import_chunks_import_id_seq_pk" PRIMARY KEY("import_id","seq"),
	CONSTRAINT "catalog_import_chunks_size" CHECK (octet_length("catalog_import_chunks"."bytes") <= 52428800)
);
--> statement-breakpoint
ALTER TABLE "catalog_imports" DROP CONSTRAINT "catalog_imports_file_size";--> statement-breakpoint
ALTER TABLE "catalog_imports" ADD COLUMN "uploaded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "catalog_import_chunks" ADD CONSTRAINT "catalog_import_chunks_import_id_catalog_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."catalog_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A job's file moves from the bytea column into its first (and only) piece; every job there was then had
-- its whole file (the upload was read before the job was written), so each counts as uploaded.
INSERT INTO "catalog_import_chunks" ("import_id", "seq", "bytes")
  SELECT "id", 0, "file" FROM "catalog_imports" WHERE "file" IS NOT NULL AND octet_length("file") > 0;--> statement-breakpoint
UPDATE "catalog_imports" SET "uploaded_at" = "created_at";--> statement-breakpoint
ALTER TABLE "catalog_imports" DROP COLUMN "file";