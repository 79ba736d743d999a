import { describe, expect, it } from 'vitest';
import { checkCatalogHeader, formatTiers, neutralizeFormula, parseCatalogRow, restoreFormulaText } from './catalog-import.ts';

const ROW = {
  sku: 'KET-1',
  name: 'Kettle',
  category: 'Home & Kitchen Appliances',
  brandname: 'HomeChef',
  price: '9.50',
  minquantity: '10',
  casepack: '5',
  mainquantity: '500',
  discount: '',
  tiers: '50:9.25|200:8',
  description: '',
  image: '/images/k.webp',
  image2: '',
  image3: '',
  content: '',
};

describe('catalog CSV rows', () => {
  it('turns a row into the product form’s input: numbers, cents, breaks, blanks as not given', () => {
    const result = parseCatalogRow(ROW);
    expect(result).toEqual({
      ok: true,
      product: expect.objectContaining({
        sku: 'KET-1',
        price: 9.5,
        minquantity: 10,
        casepack: 5,
        mainquantity: 500,
        tiers: [
          { minquantity: 50, price: 9.25 },
          { minquantity: 200, price: 8 },
        ],
      }),
    });
    if (result.ok) {
      expect(result.product.discount).toBeUndefined();
      expect(result.product.description).toBeUndefined();
    }
  });

  it('names the column of each error, with the product form’s own messages', () => {
    expect(parseCatalogRow({ ...ROW, sku: ' ', minquantity: '12', tiers: '50-9', price: '1.234' })).toEqual({
      ok: false,
      errors: [
        { column: 'sku', message: 'SKU is required: every row is matched to a product by its SKU' },
        { column: 'tiers', message: 'Volume breaks must be written as quantity:price separated by |, e.g. 50:9.25|200:8' },
        { column: 'price', message: 'Price can have at most two decimals (cents)' },
        { column: 'minquantity', message: 'Min buy quantity must be a multiple of the case pack (5)' },
      ],
    });
    expect(parseCatalogRow({ ...ROW, content: 'x'.repeat(10_001) })).toEqual({
      ok: false,
      errors: [{ column: 'content', message: 'Cell is longer than 10,000 characters' }],
    });
  });

  it('makes formula cells inert on export and takes the apostrophe off again on import', () => {
    for (const cell of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) {
      expect(neutralizeFormula(cell)).toBe(`'${cell}`);
      expect(restoreFormulaText(neutralizeFormula(cell))).toBe(cell);
    }
    expect(neutralizeFormula('Kettle')).toBe('Kettle');
    expect(restoreFormulaText("'quoted")).toBe("'quoted");
    const row = parseCatalogRow({ ...ROW, name: neutralizeFormula('=HYPERLINK("x")') });
    expect(row.ok && row.product.name).toBe('=HYPERLINK("x")');
  });

  it('writes breaks with two decimals', () => {
    expect(
      formatTiers([
        { minquantity: 50, priceCents: 925 },
        { minquantity: 200, priceCents: 800 },
      ]),
    ).toBe('50:9.25|200:8.00');
  });

  it('checks the header: any order and case, unknown, repeated and missing columns named', () => {
    expect(checkCatalogHeader(['Image', 'MAINQUANTITY', 'minquantity', 'brandname', 'category', 'name', ' sku '])).toBeNull();
    expect(checkCatalogHeader(['sku', 'colour', 'size'])).toMatch(/^Unknown columns "colour", "size"\./);
    expect(checkCatalogHeader(['sku', 'sku'])).toBe('The column "sku" appears more than once in the header.');
    expect(checkCatalogHeader(['sku', 'name'])).toBe('Missing required columns: category, brandname, minquantity, mainquantity, image.');
  });
});
