import { describe, expect, it } from 'vitest';
import { toDollars, updateProductInputSchema } from '@bulkcart/contracts';
import { buildDemoCatalog, DEMO_SELLER_OF_CATEGORY } from './demo-catalog.ts';

describe('demo catalog', () => {
  const catalog = buildDemoCatalog();

  it('passes the same schema a seller is held to, ladders and case packs included', () => {
    for (const p of catalog) {
      const result = updateProductInputSchema.safeParse({
        image: p.image,
        name: p.name,
        mainquantity: p.mainquantity,
        minquantity: p.minquantity,
        brandname: p.brandname,
        category: p.category,
        description: p.description,
        price: toDollars(p.priceCents),
        rating: p.rating,
        discount: p.discount,
        casepack: p.casepack,
        tiers: p.priceBreaks.map((t) => ({ minquantity: t.minquantity, price: toDollars(t.priceCents) })),
        sku: p.sku,
      });
      expect(result.error?.issues ?? [], p.name).toEqual([]);
    }
  });

  it('shows a newcomer volume breaks, case packs and prices with cents', () => {
    expect(catalog.filter((p) => p.priceBreaks.length > 0).length).toBeGreaterThanOrEqual(10);
    expect(catalog.filter((p) => p.casepack > 1).length).toBeGreaterThanOrEqual(5);
    expect(catalog.filter((p) => p.priceCents % 100 !== 0).length).toBeGreaterThanOrEqual(5);
  });

  it('comes from four sellers, every product with a SKU unique within its seller', () => {
    const sellers = new Set(catalog.map((p) => DEMO_SELLER_OF_CATEGORY[p.category]));
    expect(sellers.size).toBe(4);
    for (const seller of sellers) {
      const skus = catalog.filter((p) => DEMO_SELLER_OF_CATEGORY[p.category] === seller).map((p) => p.sku.toLowerCase());
      expect(new Set(skus).size, seller).toBe(skus.length);
    }
    expect(catalog.every((p) => /^[A-Z]{2,4}-\d{3}$/.test(p.sku))).toBe(true);
  });
});
