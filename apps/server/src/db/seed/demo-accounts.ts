/** Demo accounts, seeded only on the embedded database outside production (docs/product/screens.md). */
export const DEMO_BUYER = { name: 'Demo Buyer', email: 'buyer@bulkcart.demo', password: 'DemoBuyer1' } as const;
export const DEMO_SELLER = { name: 'Demo Seller', email: 'seller@bulkcart.demo', password: 'DemoSeller1' } as const;
/** The demo operator: reviews business verifications (an operator by demo mode, not ADMIN_EMAILS). */
export const DEMO_OPERATOR = { name: 'Demo Operator', email: 'admin@bulkcart.demo', password: 'DemoAdmin1' } as const;
