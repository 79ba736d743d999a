CREATE TABLE "cart_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "cart_lines_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"buyer_id" text NOT NULL,
	"product_id" uuid NOT NULL,
	"product_name" text NOT NULL,
	"product_image" text NOT NULL,
	"product_sku" text,
	"seller_name" text NOT NULL,
	"seller_id" text,
	"quantity" integer NOT NULL,
	"seen_unit_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cart_lines_seq_unique" UNIQUE("seq"),
	CONSTRAINT "cart_lines_quantity_range" CHECK ("cart_lines"."quantity" BETWEEN 1 AND 1000000)
);
--> statement-breakpoint
CREATE TABLE "carts" (
	"buyer_id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "checkouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"buyer_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"expected_total_cents" bigint NOT NULL,
	"po_number" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_list_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "order_list_lines_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"list_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"product_name" text NOT NULL,
	"product_image" text NOT NULL,
	"product_sku" text,
	"seller_name" text NOT NULL,
	"quantity" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_list_lines_seq_unique" UNIQUE("seq"),
	CONSTRAINT "order_list_lines_quantity_range" CHECK ("order_list_lines"."quantity" BETWEEN 1 AND 1000000)
);
--> statement-breakpoint
CREATE TABLE "order_lists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "order_lists_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_lists_seq_unique" UNIQUE("seq")
);
--> statement-breakpoint
CREATE TABLE "seller_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"minimum_order_cents" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "seller_settings_minimum_positive" CHECK ("seller_settings"."minimum_order_cents" IS NULL OR "seller_settings"."minimum_order_cents" >= 1)
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "sku" text;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "product_sku" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "po_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "checkout_id" uuid;--> statement-breakpoint
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_buyer_id_user_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_seller_id_user_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carts" ADD CONSTRAINT "carts_buyer_id_user_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_buyer_id_user_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_list_lines" ADD CONSTRAINT "order_list_lines_list_id_order_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."order_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lists" ADD CONSTRAINT "order_lists_owner_id_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_settings" ADD CONSTRAINT "seller_settings_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cart_lines_buyer_product_idx" ON "cart_lines" USING btree ("buyer_id","product_id");--> statement-breakpoint
CREATE INDEX "cart_lines_buyer_seq_idx" ON "cart_lines" USING btree ("buyer_id","seq");--> statement-breakpoint
CREATE INDEX "cart_lines_seller_id_idx" ON "cart_lines" USING btree ("seller_id");--> statement-breakpoint
CREATE UNIQUE INDEX "checkouts_buyer_key_idx" ON "checkouts" USING btree ("buyer_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "order_list_lines_list_product_idx" ON "order_list_lines" USING btree ("list_id","product_id");--> statement-breakpoint
CREATE INDEX "order_list_lines_list_seq_idx" ON "order_list_lines" USING btree ("list_id","seq");--> statement-breakpoint
CREATE INDEX "order_lists_owner_seq_idx" ON "order_lists" USING btree ("owner_id","seq");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_checkout_id_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."checkouts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "products_owner_sku_idx" ON "products" USING btree ("owner_id",lower("sku")) WHERE "products"."sku" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "products_sku_idx" ON "products" USING btree (lower("sku") text_pattern_ops) WHERE "products"."sku" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_checkout_id_idx" ON "orders" USING btree ("checkout_id");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_sku_form" CHECK ("products"."sku" IS NULL OR "products"."sku" ~ '^[A-Za-z0-9._/-]{1,64}$');--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_po_number_length" CHECK (char_length("orders"."po_number") <= 40);