ALTER TABLE "products" DROP CONSTRAINT "products_price_positive";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "price_breaks" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "casepack" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "line_total_cents" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "list_unit_price_cents" integer;--> statement-breakpoint
-- Orders placed before breaks existed: the line is unit × quantity, and the unit price is the best
-- record of the list price there is (the discount off it was not kept).
UPDATE "orders" SET "line_total_cents" = "unit_price_cents"::bigint * "quantity", "list_unit_price_cents" = "unit_price_cents";--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "line_total_cents" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "list_unit_price_cents" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tier_minquantity" integer;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_price_cents_positive" CHECK ("products"."price_cents" IS NULL OR "products"."price_cents" >= 1);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_casepack_positive" CHECK ("products"."casepack" >= 1);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_price_breaks_array" CHECK (jsonb_typeof("products"."price_breaks") = 'array' AND jsonb_array_length("products"."price_breaks") <= 5);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_line_total_matches" CHECK ("orders"."line_total_cents" = "orders"."unit_price_cents"::bigint * "orders"."quantity");