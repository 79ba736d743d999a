/** Demo accounts, seeded only on the embedded database outside production (docs/product/screens.md). */
export const DEMO_BUYER = { name: 'Demo Buyer', email: 'buyer@bulkcart.demo', password: 'DemoBuyer1' } as const;
export const DEMO_SELLER = { name: 'Demo Seller', email: 'seller@bulkcart.demo', password: 'DemoSeller1' } as const;
/** The demo operator: reviews business verifications (an operator by demo mode, not ADMIN_EMAILS). */
export const DEMO_OPERATOR = { name: 'Demo Operator', email: 'admin@bulkcart.demo', password: 'DemoAdmin1' } as const;

/**
 * The other demo sellers, so a newcomer's first cart splits by seller (docs/decisions/015). Summit has
 * a minimum order value; the demo seller keeps electronics and fashion.
 */
export const DEMO_SELLERS = [
  { name: 'Summit Office Supply', email: 'summit@bulkcart.demo', password: 'DemoSeller1', minimumOrderCents: 50_000 },
  { name: 'Hearth & Home Wholesale', email: 'hearth@bulkcart.demo', password: 'DemoSeller1', minimumOrderCents: null },
  { name: 'Forgeline Industrial', email: 'forgeline@bulkcart.demo', password: 'DemoSeller1', minimumOrderCents: null },
] as const;
