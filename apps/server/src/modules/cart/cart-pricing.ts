import {
  CART_TEXT,
  formatMoney,
  MESSAGES,
  ORDER_MESSAGES,
  quotePrice,
  toDollars,
  type Cart,
  type CartLine,
  type CartProblem,
  type PriceBreakCents,
} from '@bulkcart/contracts';
import { largestBuyable, UNPRICED_TEXT, wholeCasesText } from '../orders/index.ts';

/**
 * A cart priced as the checkout would charge it now (docs/decisions/017-cart-and-checkout.md): pure,
 * so GET /api/cart, the checkout's check in its transaction and the saved lists all read one function.
 */

/** A line as stored: the product it names and the copy kept for when the product is gone. */
export interface StoredLine {
  productId: string;
  quantity: number;
  /** The unit price the buyer last saw on this line; null where nothing was seen (a saved list). */
  seenUnitCents: number | null;
  productName: string;
  productImage: string;
  productSku: string | null;
  sellerId: string | null;
  sellerName: string;
}

/** A product as it is now, with everything pricing and the rules read. */
export interface BuyableProduct {
  id: string;
  name: string;
  image: string;
  sku: string | null;
  priceCents: number | null;
  discount: number;
  priceBreaks: PriceBreakCents[];
  casepack: number;
  mainquantity: number;
  minquantity: number;
  ownerId: string | null;
  ownerEmail: string;
}

export interface SellerInfo {
  name: string;
  minimumOrderCents: number | null;
}

/** Whether a problem stops the checkout, and how: stock is a 409, a rule a 422; a price change does not. */
export type Blocking = 'stock' | 'rule' | null;

export interface PricedLine {
  productId: string;
  sku: string | null;
  name: string;
  image: string;
  sellerKey: string;
  sellerId: string | null;
  sellerName: string;
  quantity: number;
  unitCents: number;
  listUnitCents: number;
  lineTotalCents: number;
  minquantity: number;
  casepack: number;
  available: number;
  problem: CartProblem | null;
  blocking: Blocking;
}

export interface PricedSeller {
  key: string;
  sellerId: string | null;
  sellerName: string;
  subtotalCents: number;
  minimumOrderCents: number | null;
  shortByCents: number;
  productIds: string[];
}

export interface PricedCart {
  lines: PricedLine[];
  sellers: PricedSeller[];
  totalCents: number;
}

export interface PricingInput {
  lines: StoredLine[];
  products: ReadonlyMap<string, BuyableProduct>;
  /** By seller (owner) id. */
  sellers: ReadonlyMap<string, SellerInfo>;
  buyerId: string;
  breaksApply: boolean;
}

function problem(code: CartProblem['code'], message: string, quantity: number | null, blocking: Blocking) {
  return { problem: { code, message, quantity }, blocking };
}

/**
 * What stops a line, in the order a buyer fixes things: gone, not theirs to buy, not for sale, none in
 * stock, below the MOQ, not whole cases, more than the stock; then (not stopping it) a changed price.
 */
function lineProblem(
  product: BuyableProduct | undefined,
  line: StoredLine,
  buyerId: string,
  unitCents: number,
): { problem: CartProblem | null; blocking: Blocking } {
  if (!product) return problem('deleted', CART_TEXT.noLongerSold, null, 'rule');
  if (product.ownerId === buyerId) return problem('own_product', ORDER_MESSAGES.ownProduct, null, 'rule');
  if (product.priceCents === null) return problem('unpriced', UNPRICED_TEXT, null, 'rule');
  const most = largestBuyable(product.mainquantity, product.casepack);
  if (most < product.minquantity) return problem('sold_out', `Sold out: ${MESSAGES.stockText(product.mainquantity)}`, null, 'stock');
  if (line.quantity < product.minquantity) return problem('below_moq', MESSAGES.moqText(product.minquantity), product.minquantity, 'rule');
  if (line.quantity % product.casepack !== 0) {
    return problem('not_whole_cases', wholeCasesText(product.casepack), Math.min(Math.ceil(line.quantity / product.casepack) * product.casepack, most), 'rule');
  }
  if (line.quantity > product.mainquantity) return problem('short', MESSAGES.stockText(product.mainquantity), most, 'stock');
  if (line.seenUnitCents !== null && line.seenUnitCents !== unitCents) {
    return problem(
      'price_changed',
      `The price changed from ${formatMoney(line.seenUnitCents)} to ${formatMoney(unitCents)} a unit since you added it.`,
      line.quantity,
      null,
    );
  }
  return { problem: null, blocking: null };
}

export function priceCart(input: PricingInput): PricedCart {
  const sellers = new Map<string, PricedSeller>();
  const lines = input.lines.map((line): PricedLine => {
    const product = input.products.get(line.productId);
    const sellerId = product ? product.ownerId : line.sellerId;
    // An account-less seller (deleted account) is told apart by the email it listed with.
    const sellerKey = sellerId ?? `email:${product?.ownerEmail ?? line.sellerName}`;
    const info = sellerId ? input.sellers.get(sellerId) : undefined;
    const sellerName = info?.name ?? product?.ownerEmail ?? line.sellerName;
    const quote =
      product && product.priceCents !== null
        ? quotePrice({ priceCents: product.priceCents, discount: product.discount, tiers: product.priceBreaks }, line.quantity, {
            breaksApply: input.breaksApply,
          })
        : null;
    const unitCents = quote?.unitCents ?? line.seenUnitCents ?? 0;
    const { problem, blocking } = lineProblem(product, line, input.buyerId, unitCents);
    const priced: PricedLine = {
      productId: line.productId,
      sku: product ? product.sku : line.productSku,
      name: product?.name ?? line.productName,
      image: product?.image ?? line.productImage,
      sellerKey,
      sellerId,
      sellerName,
      quantity: line.quantity,
      unitCents,
      listUnitCents: quote?.listUnitCents ?? unitCents,
      lineTotalCents: quote?.totalCents ?? 0,
      minquantity: product?.minquantity ?? 1,
      casepack: product?.casepack ?? 1,
      available: product?.mainquantity ?? 0,
      problem,
      blocking,
    };
    let group = sellers.get(sellerKey);
    if (!group) {
      group = { key: sellerKey, sellerId, sellerName, subtotalCents: 0, minimumOrderCents: info?.minimumOrderCents ?? null, shortByCents: 0, productIds: [] };
      sellers.set(sellerKey, group);
    }
    group.subtotalCents += priced.lineTotalCents;
    group.productIds.push(priced.productId);
    return priced;
  });
  for (const group of sellers.values()) {
    group.shortByCents = group.minimumOrderCents === null ? 0 : Math.max(0, group.minimumOrderCents - group.subtotalCents);
  }
  return { lines, sellers: [...sellers.values()], totalCents: lines.reduce((sum, line) => sum + line.lineTotalCents, 0) };
}

export function toCartLine(line: PricedLine): CartLine {
  return {
    productId: line.productId,
    sku: line.sku,
    name: line.name,
    image: line.image,
    sellerId: line.sellerId,
    sellerName: line.sellerName,
    quantity: line.quantity,
    unitPrice: toDollars(line.unitCents),
    listUnitPrice: toDollars(line.listUnitCents),
    lineTotal: toDollars(line.lineTotalCents),
    minquantity: line.minquantity,
    casepack: line.casepack,
    available: line.available,
    problem: line.problem,
  };
}

/** The answer of GET /api/cart: amounts in dollars, cents inside. */
export function toCart(priced: PricedCart): Cart {
  return {
    lines: priced.lines.map(toCartLine),
    sellers: priced.sellers.map((s) => ({
      sellerId: s.sellerId,
      sellerName: s.sellerName,
      subtotal: toDollars(s.subtotalCents),
      minimumOrder: s.minimumOrderCents === null ? null : toDollars(s.minimumOrderCents),
      shortBy: toDollars(s.shortByCents),
    })),
    total: toDollars(priced.totalCents),
    count: priced.lines.length,
  };
}
