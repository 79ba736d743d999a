ALTER TABLE "products" ADD COLUMN "sku" text;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "product_sku" text;--> statement-breakpoint
CREATE UNIQUE INDEX "products_owner_sku_idx" ON "products" USING btree ("owner_id",lower("sku")) WHERE "products"."sku" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "products_sku_idx" ON "products" USING btree (lower("sku")) WHERE "products"."sku" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_sku_form" CHECK ("products"."sku" IS NULL OR "products"."sku" ~ '^[A-Za-z0-9._/-]{1,64}$');