import { toDollars, type Product } from '@bulkcart/contracts';
import { products, type ProductRow } from '../../db/schema/index.ts';

/** The columns a product answer needs, and nothing else (no owner id, no updated_at). */
export const productColumns = {
  id: products.id,
  image: products.image,
  image2: products.image2,
  image3: products.image3,
  name: products.name,
  mainquantity: products.mainquantity,
  minquantity: products.minquantity,
  brandname: products.brandname,
  category: products.category,
  description: products.description,
  priceCents: products.priceCents,
  rating: products.rating,
  content: products.content,
  ownerEmail: products.ownerEmail,
  updatedBy: products.updatedBy,
  discount: products.discount,
  casepack: products.casepack,
  priceBreaks: products.priceBreaks,
  sku: products.sku,
  createdAt: products.createdAt,
  unlistedAt: products.unlistedAt,
};

/** List queries also read `seq`: it is the next page's cursor. */
export const productPageColumns = { ...productColumns, seq: products.seq };

/** A product row as the answer queries read it. */
export type ProductRecord = Pick<ProductRow, keyof typeof productColumns>;

/**
 * A row in the original app's field names (docs/product/api.md); money leaves the server as dollars.
 * Typed by the contract, so a field added to `productSchema` and not here fails the type check.
 */
export function toProductJson(row: ProductRecord): Product {
  return {
    _id: row.id,
    image: row.image,
    image2: row.image2,
    image3: row.image3,
    name: row.name,
    mainquantity: row.mainquantity,
    minquantity: row.minquantity,
    brandname: row.brandname,
    category: row.category,
    description: row.description,
    price: row.priceCents === null ? null : toDollars(row.priceCents),
    rating: row.rating,
    Content: row.content,
    useremail: row.ownerEmail,
    updatedby: row.updatedBy,
    discount: row.discount,
    createdAt: row.createdAt.toISOString(),
    casepack: row.casepack,
    tiers: row.priceBreaks.map((t) => ({ minquantity: t.minquantity, price: toDollars(t.priceCents) })),
    sku: row.sku,
    unlisted: row.unlistedAt !== null,
  };
}
