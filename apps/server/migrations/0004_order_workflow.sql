CREATE SEQUENCE "public"."order_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 10001 CACHE 1;--> statement-breakpoint
CREATE TABLE "email_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"notification_id" uuid,
	"to_email" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "notifications_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text NOT NULL,
	"order_id" uuid NOT NULL,
	"order_number" text NOT NULL,
	"order_status" text NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notifications_seq_unique" UNIQUE("seq")
);
--> statement-breakpoint
CREATE TABLE "order_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "order_events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" uuid NOT NULL,
	"actor" text NOT NULL,
	"actor_id" text,
	"actor_name" text,
	"from_status" text,
	"to_status" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_events_seq_unique" UNIQUE("seq")
);
--> statement-breakpoint
CREATE TABLE "order_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"product_id" uuid,
	"quantity" integer NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"line_total_cents" bigint NOT NULL,
	"list_unit_price_cents" integer NOT NULL,
	"tier_minquantity" integer,
	"product_name" text NOT NULL,
	"product_image" text NOT NULL,
	"product_brand" text NOT NULL,
	"product_category" text NOT NULL,
	"product_minquantity" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_lines_quantity_positive" CHECK ("order_lines"."quantity" >= 1),
	CONSTRAINT "order_lines_unit_price_nonnegative" CHECK ("order_lines"."unit_price_cents" >= 0),
	CONSTRAINT "order_lines_total_matches" CHECK ("order_lines"."line_total_cents" = "order_lines"."unit_price_cents"::bigint * "order_lines"."quantity")
);
--> statement-breakpoint
CREATE TABLE "ship_to_addresses" (
	"user_id" text PRIMARY KEY NOT NULL,
	"address" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "orders_buyer_live_seq_idx";--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "quantity" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "unit_price_cents" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "line_total_cents" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "list_unit_price_cents" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "product_name" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "product_image" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "product_brand" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "product_category" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "product_minquantity" DROP NOT NULL;--> statement-breakpoint
-- Orders placed before numbers existed are numbered in the order they were placed; new ones follow.
ALTER TABLE "orders" ADD COLUMN "number" text;--> statement-breakpoint
UPDATE "orders" SET "number" = 'BC-' || (10000 + "seq")::text;--> statement-breakpoint
SELECT setval('order_number_seq', (SELECT 10000 + coalesce(max("seq"), 0) FROM "orders"));--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "number" SET DEFAULT ('BC-' || nextval('order_number_seq')::text);--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "number" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "status" text DEFAULT 'placed' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "seller_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "seller_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "total_cents" bigint;--> statement-breakpoint
UPDATE "orders" SET "total_cents" = "line_total_cents";--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "total_cents" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "ship_to" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "ship_by" date;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "carrier" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tracking" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "late_notified_at" timestamp with time zone;--> statement-breakpoint
-- Existing orders: a cancelled one stays cancelled, every other one is placed; its seller is the
-- product's owner (none when the product or its owner is gone), and its one line moves to order_lines.
UPDATE "orders" SET "status" = 'cancelled' WHERE "cancelled_at" IS NOT NULL;--> statement-breakpoint
UPDATE "orders" SET "seller_id" = "products"."owner_id", "seller_name" = coalesce("user"."name", "products"."owner_email")
  FROM "products" LEFT JOIN "user" ON "user"."id" = "products"."owner_id"
  WHERE "products"."id" = "orders"."product_id";--> statement-breakpoint
INSERT INTO "order_lines" ("order_id", "position", "product_id", "quantity", "unit_price_cents", "line_total_cents",
    "list_unit_price_cents", "tier_minquantity", "product_name", "product_image", "product_brand", "product_category",
    "product_minquantity", "created_at", "updated_at")
  SELECT "id", 1, "product_id", "quantity", "unit_price_cents", "line_total_cents", "list_unit_price_cents",
    "tier_minquantity", "product_name", "product_image", "product_brand", "product_category", "product_minquantity",
    "created_at", "created_at"
  FROM "orders";--> statement-breakpoint
INSERT INTO "order_events" ("order_id", "actor", "actor_id", "actor_name", "from_status", "to_status", "created_at", "updated_at")
  SELECT "id", 'buyer', "buyer_id", "buyer_name", NULL, 'placed', "created_at", "created_at" FROM "orders" ORDER BY "seq";--> statement-breakpoint
INSERT INTO "order_events" ("order_id", "actor", "actor_id", "actor_name", "from_status", "to_status", "created_at", "updated_at")
  SELECT "id", 'buyer', "buyer_id", "buyer_name", 'placed', 'cancelled', "cancelled_at", "cancelled_at" FROM "orders"
  WHERE "cancelled_at" IS NOT NULL ORDER BY "seq";--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_actor_id_user_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ship_to_addresses" ADD CONSTRAINT "ship_to_addresses_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_outbox_due_idx" ON "email_outbox" USING btree ("next_attempt_at") WHERE "email_outbox"."sent_at" IS NULL;--> statement-breakpoint
CREATE INDEX "email_outbox_notification_id_idx" ON "email_outbox" USING btree ("notification_id");--> statement-breakpoint
CREATE INDEX "notifications_user_seq_idx" ON "notifications" USING btree ("user_id","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_user_unread_idx" ON "notifications" USING btree ("user_id") WHERE "notifications"."read_at" IS NULL;--> statement-breakpoint
CREATE INDEX "notifications_order_id_idx" ON "notifications" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_events_order_seq_idx" ON "order_events" USING btree ("order_id","seq");--> statement-breakpoint
CREATE INDEX "order_events_actor_id_idx" ON "order_events" USING btree ("actor_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_lines_order_position_idx" ON "order_lines" USING btree ("order_id","position");--> statement-breakpoint
CREATE INDEX "order_lines_product_id_idx" ON "order_lines" USING btree ("product_id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_seller_id_user_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_number_idx" ON "orders" USING btree ("number");--> statement-breakpoint
CREATE INDEX "orders_buyer_listed_seq_idx" ON "orders" USING btree ("buyer_id","seq" DESC NULLS LAST) WHERE "orders"."status" <> 'cancelled';--> statement-breakpoint
CREATE INDEX "orders_seller_seq_idx" ON "orders" USING btree ("seller_id","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_seller_status_seq_idx" ON "orders" USING btree ("seller_id","status","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_placed_created_idx" ON "orders" USING btree ("created_at") WHERE "orders"."status" = 'placed';--> statement-breakpoint
CREATE INDEX "orders_accepted_ship_by_idx" ON "orders" USING btree ("ship_by") WHERE "orders"."status" = 'accepted' AND "orders"."late_notified_at" IS NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_total_nonnegative" CHECK ("orders"."total_cents" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_known" CHECK ("orders"."status" IN ('placed', 'accepted', 'shipped', 'delivered', 'declined', 'cancelled'));