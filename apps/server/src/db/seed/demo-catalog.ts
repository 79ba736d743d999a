import { createHash } from 'node:crypto';
import { CATEGORIES, type Category, type PriceBreakCents } from '@bulkcart/contracts';

export interface DemoProduct {
  id: string;
  slug: string;
  /** The seller's code: the brand's first letters and a running number (`INKW-012`), unique per seller. */
  sku: string;
  name: string;
  category: Category;
  brandname: string;
  description: string;
  content: string;
  priceCents: number;
  /** Volume breaks, cheapest last; multiples of the case pack. */
  priceBreaks: PriceBreakCents[];
  casepack: number;
  rating: number;
  discount: number;
  mainquantity: number;
  minquantity: number;
  image: string;
  image2: string | null;
  image3: string | null;
}

/** Ten products per category: [name, brand]. */
const NAMES: Record<Category, Array<[string, string]>> = {
  'Electronics & Gadgets': [
    ['Wireless Earbuds Pro', 'SoundWave'],
    ['USB-C Fast Charger 65W', 'VoltEdge'],
    ['Smart LED Bulb 4-Pack', 'Lumina'],
    ['Bluetooth Speaker Mini', 'SoundWave'],
    ['Power Bank 20000mAh', 'VoltEdge'],
    ['Phone Stand Aluminium', 'DeskMate'],
    ['HDMI Cable 2m', 'LinkPro'],
    ['Wireless Mouse', 'ClickRight'],
    ['Mechanical Keyboard', 'ClickRight'],
    ['Smart Watch Lite', 'Pulse'],
  ],
  'Home & Kitchen Appliances': [
    ['Electric Kettle 1.7L', 'HomeChef'],
    ['Non-stick Frying Pan 28cm', 'CookRight'],
    ['Stainless Steel Knife Set', 'CookRight'],
    ['Blender 600W', 'HomeChef'],
    ['Glass Food Containers', 'FreshKeep'],
    ['Toaster 2-Slice', 'HomeChef'],
    ['Cotton Kitchen Towels', 'CasaSoft'],
    ['Digital Kitchen Scale', 'MeasureIt'],
    ['Coffee Grinder', 'BrewMaster'],
    ['Rice Cooker 1.8L', 'HomeChef'],
  ],
  'Fashion & Apparel': [
    ['Cotton Crew T-Shirt', 'UrbanThread'],
    ['Denim Jeans Slim Fit', 'BlueLine'],
    ['Hooded Sweatshirt', 'UrbanThread'],
    ['Leather Belt', 'Craftsman'],
    ['Sports Socks 6-Pack', 'StrideOn'],
    ['Baseball Cap', 'UrbanThread'],
    ['Canvas Tote Bag', 'EcoCarry'],
    ['Rain Jacket', 'Outbound'],
    ['Knit Beanie', 'Outbound'],
    ['Polo Shirt', 'BlueLine'],
  ],
  'Industrial Machinery & Tools': [
    ['Cordless Drill 18V', 'ForgeWorks'],
    ['Safety Gloves Nitrile', 'SafeHands'],
    ['Socket Wrench Set', 'ForgeWorks'],
    ['Angle Grinder 900W', 'TorqueMax'],
    ['Measuring Tape 8m', 'MeasureIt'],
    ['Safety Goggles', 'SafeHands'],
    ['Workbench Clamp', 'ForgeWorks'],
    ['Air Compressor 24L', 'TorqueMax'],
    ['Steel Toolbox', 'ForgeWorks'],
    ['Extension Reel 25m', 'VoltEdge'],
  ],
  'Health & Beauty': [
    ['Aloe Vera Gel 250ml', 'PureLeaf'],
    ['Vitamin C Serum', 'Glow Lab'],
    ['Bamboo Toothbrush 4-Pack', 'EcoSmile'],
    ['Hand Sanitizer 500ml', 'CleanCare'],
    ['Shea Butter Body Lotion', 'PureLeaf'],
    ['Hair Dryer Compact', 'StyleAir'],
    ['Sunscreen SPF 50', 'Glow Lab'],
    ['Lip Balm Trio', 'PureLeaf'],
    ['Face Masks 50-Pack', 'CleanCare'],
    ['Argan Oil Shampoo', 'StyleAir'],
  ],
  'Office Supplies & Stationery': [
    ['A4 Copy Paper 500 Sheets', 'PaperTrail'],
    ['Gel Pens 12-Pack', 'InkWell'],
    ['Spiral Notebook A5', 'PaperTrail'],
    ['Stapler Heavy Duty', 'DeskMate'],
    ['Sticky Notes 12 Pads', 'PaperTrail'],
    ['Desk Organizer', 'DeskMate'],
    ['Highlighters 6 Colours', 'InkWell'],
    ['Binder Clips Assorted', 'DeskMate'],
    ['Whiteboard Markers', 'InkWell'],
    ['File Folders 25-Pack', 'PaperTrail'],
  ],
};

/** Stable UUIDs from names, so re-seeding finds the same rows (ON CONFLICT DO NOTHING). */
function stableUuid(seed: string): string {
  const hex = createHash('sha256').update(`bulkcart-demo:${seed}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * Volume breaks at 5× and 20× the minimum, 10% and 20% off the base: what a newcomer should see on
 * about half the catalog.
 */
function demoBreaks(priceCents: number, minquantity: number): PriceBreakCents[] {
  return [
    { minquantity: minquantity * 5, priceCents: Math.floor(priceCents * 0.9) },
    { minquantity: minquantity * 20, priceCents: Math.floor(priceCents * 0.8) },
  ];
}

/**
 * Deterministic demo catalog: 60 products, some discounted, some with MOQ > 100, a few low on stock,
 * some with volume breaks, some sold by the case, some priced with cents, every one with a SKU.
 */
export function buildDemoCatalog(): DemoProduct[] {
  const products: DemoProduct[] = [];
  CATEGORIES.forEach((category, c) => {
    NAMES[category].forEach(([name, brandname], i) => {
      const n = c * 10 + i;
      const slug = slugify(name);
      const minquantity = [10, 25, 50, 120, 200, 5, 500, 20, 150, 40][i] ?? 10;
      const lowStock = i === 9 && c % 2 === 0;
      // Cents off the whole-dollar base on a few, so $x.49, $x.99 and $x.35 show up.
      const priceCents = (3 + ((n * 7) % 47)) * 100 - ([0, 0, 51, 0, 0, 1, 0, 65, 0, 0][i] ?? 0);
      // Cases that divide the minimum (and so the breaks at 5× and 20× it).
      const casepack = [1, 5, 1, 1, 20, 1, 50, 1, 1, 1][i] ?? 1;
      const hasBreaks = [true, true, false, true, true, false, true, false, true, false][i] ?? false;
      products.push({
        id: stableUuid(slug),
        slug,
        sku: `${brandname
          .toUpperCase()
          .replace(/[^A-Z]/g, '')
          .slice(0, 4)}-${String(n + 1).padStart(3, '0')}`,
        name,
        category,
        brandname,
        description: `${name} by ${brandname}, packed for resale. Wholesale pricing from ${minquantity} units.`,
        content: `Product Content: ${name}. Brand: ${brandname}. Category: ${category}. Ships in master cartons; mixed lots on request. Business license or reseller permit required.`,
        priceCents,
        priceBreaks: hasBreaks ? demoBreaks(priceCents, minquantity) : [],
        casepack,
        rating: 3 + ((n * 5) % 3),
        discount: [0, 10, 0, 15, 0, 0, 25, 0, 5, 0][i] ?? 0,
        mainquantity: lowStock ? minquantity + 3 : 2_000 + ((n * 137) % 8_000),
        minquantity,
        image: `/images/products/${slug}.webp`,
        image2: i % 3 === 0 ? `/images/products/${slug}-2.webp` : null,
        image3: i % 3 === 0 ? `/images/products/${slug}-3.webp` : null,
      });
    });
  });
  return products;
}

/** Which demo seller lists a category (demo-accounts.ts): four sellers, so a first cart splits by seller. */
export const DEMO_SELLER_OF_CATEGORY: Record<Category, 'demo' | 'summit@bulkcart.demo' | 'hearth@bulkcart.demo' | 'forgeline@bulkcart.demo'> = {
  'Electronics & Gadgets': 'demo',
  'Fashion & Apparel': 'demo',
  'Office Supplies & Stationery': 'summit@bulkcart.demo',
  'Home & Kitchen Appliances': 'hearth@bulkcart.demo',
  'Health & Beauty': 'hearth@bulkcart.demo',
  'Industrial Machinery & Tools': 'forgeline@bulkcart.demo',
};
