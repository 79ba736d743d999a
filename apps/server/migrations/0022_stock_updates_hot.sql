DROP INDEX "products_owner_stock_seq_idx";--> statement-breakpoint
DROP INDEX "products_facets_idx";--> statement-breakpoint
CREATE INDEX "products_facets_idx" ON "products" USING btree ("category","brandname","shown_price_cents","minquantity");