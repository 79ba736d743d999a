import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { productSellerSchema, sellerSettingsSchema } from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../lib/define-route.ts';
import { getProductSeller, getSellerSettings, putSellerSettings } from './sellers.service.ts';

const tags = ['sellers'];

/** A seller's own settings, and what a product page shows of its seller (docs/decisions/017-cart-and-checkout.md). */
export async function registerSellerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/seller/settings',
    auth: 'signedIn',
    summary: 'Your seller settings: the minimum order value',
    tags,
    response: { 200: sellerSettingsSchema },
    handler: ({ user }) => getSellerSettings({ db: ctx.db, user }),
  });

  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/api/seller/settings',
    auth: 'signedIn',
    summary: 'Set your minimum order value (null for none)',
    tags,
    body: sellerSettingsSchema,
    response: { 200: sellerSettingsSchema },
    handler: ({ user, body }) => putSellerSettings({ db: ctx.db, user }, body),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/product/:id/seller',
    auth: 'public',
    summary: "A product's seller and their minimum order",
    tags,
    params: z.object({ id: z.string() }),
    response: { 200: productSellerSchema },
    handler: ({ params }) => getProductSeller(ctx, { id: params.id }),
  });
}
