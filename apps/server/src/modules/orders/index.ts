/** What other modules (the cart's checkout and lists) may use of ordering; everything else is this module's own. */
export { loadOrders } from './order-answer.ts';
export { orderNotFound } from './order-workflow.ts';
export { readIdempotencyKey } from './orders.routes.ts';
export { assertCanBuy, destinationOf, parseOrderId } from './orders.service.ts';
export {
  draftOrder,
  lockProductsForPlacement,
  reserveOrderNumbers,
  takeLockedStock,
  writeOrders,
  type Destination,
  type LockedProduct,
  type PlacedOrder,
} from './place-order.ts';
export { type AlsoStatement } from './array-insert.ts';
export { belowMoq, largestBuyable, notWholeCases, outOfStock, ownProduct, unpriced, UNPRICED_TEXT, wholeCasesText } from './purchase-rules.ts';
export { runOrderSweep } from './order-sweep.ts';
