ALTER TABLE "orders" ADD COLUMN "accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipped_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "order_lines_order_sales_idx" ON "order_lines" USING btree ("order_id","product_id","quantity","line_total_cents");--> statement-breakpoint
CREATE INDEX "orders_seller_created_idx" ON "orders" USING btree ("seller_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_seller_buyer_created_idx" ON "orders" USING btree ("seller_id","buyer_id","created_at");--> statement-breakpoint
-- Orders accepted or shipped before this migration: their instants from the timeline (decision 019).
UPDATE "orders" o SET "accepted_at" = e."at" FROM (SELECT "order_id", min("created_at") AS "at" FROM "order_events" WHERE "to_status" = 'accepted' GROUP BY "order_id") e WHERE e."order_id" = o."id";--> statement-breakpoint
UPDATE "orders" o SET "shipped_at" = e."at" FROM (SELECT "order_id", min("created_at") AS "at" FROM "order_events" WHERE "to_status" = 'shipped' GROUP BY "order_id") e WHERE e."order_id" = o."id";
