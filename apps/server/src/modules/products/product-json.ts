import { toDollars, type PriceBreakCents, type Product } from '@bulkcart/contracts';
import { products } from '../../db/schema/index.ts';

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
  createdAt: products.createdAt,
};

/** List queries also read `seq`: it is the next page's cursor. */
export const productPageColumns = { ...productColumns, seq: products.seq };

export interface ProductRecord {
  id: string;
  image: string;
  image2: string | null;
  image3: string | null;
  name: string;
  mainquantity: number;
  minquantity: number;
  brandname: string;
  category: string;
  description: string | null;
  priceCents: number | null;
  rating: number | null;
  content: string | null;
  ownerEmail: string;
  updatedBy: string | null;
  discount: number;
  casepack: number;
  priceBreaks: PriceBreakCents[];
  createdAt: Date;
}

/** A row in the spec's field names; money leaves the server as dollars (12, 0.35, 1234.5). */
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
  };
}

/**
 * JSON Schema of `Product` for Fastify's response serializer (fast-json-stringify): an answer can only
 * ever carry the fields the contract names, whatever a future query selects. Written out rather than
 * generated from a zod schema because zod's nullable becomes `anyOf`, which fast-json-stringify can
 * only serialise by validating each value; the `satisfies` below make the compiler keep the two in
 * step (a field added to Product and not here, or here and not there, fails the type check).
 */
const nullableString = { type: ['string', 'null'] } as const;
const nullableInteger = { type: ['integer', 'null'] } as const;

/** The keys of Product that are never absent (the optional ones may be left out of an answer). */
type RequiredProductKey = { [K in keyof Product]-?: undefined extends Product[K] ? never : K }[keyof Product];

export const productResponseSchema = {
  type: 'object',
  required: ['_id', 'image', 'name', 'mainquantity', 'minquantity', 'brandname', 'category', 'useremail', 'discount', 'createdAt', 'casepack', 'tiers'] satisfies RequiredProductKey[],
  properties: {
    _id: { type: 'string' },
    image: { type: 'string' },
    image2: nullableString,
    image3: nullableString,
    name: { type: 'string' },
    mainquantity: { type: 'integer' },
    minquantity: { type: 'integer' },
    brandname: { type: 'string' },
    category: { type: 'string' },
    description: nullableString,
    price: { type: ['number', 'null'] },
    rating: nullableInteger,
    Content: nullableString,
    useremail: { type: 'string' },
    updatedby: nullableString,
    discount: { type: 'integer' },
    createdAt: { type: 'string' },
    casepack: { type: 'integer' },
    tiers: {
      type: 'array',
      items: {
        type: 'object',
        required: ['minquantity', 'price'],
        properties: { minquantity: { type: 'integer' }, price: { type: 'number' } },
      },
    },
  } satisfies Record<keyof Product, unknown>,
} as const;

export const productListResponseSchema = { type: 'array', items: productResponseSchema } as const;

export const deletedProductResponseSchema = {
  type: 'object',
  required: ['_id', 'deleted'],
  properties: { _id: { type: 'string' }, deleted: { type: 'boolean' } },
} as const;
