import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { productSellerSchema, sellerSettingsSchema } from '@bulkcart/contracts';
import type { AppContext } from '../../context.ts';
import { parseInput } from '../../lib/validate.ts';
import { routeContract } from '../../lib/route-schema.ts';
import { requireUser } from '../accounts/session.ts';
import { getProductSeller, getSellerSettings, putSellerSettings } from './sellers.service.ts';

const tags = ['sellers'];

/** A seller's own settings, and what a product page shows of its seller (docs/decisions/017-cart-and-checkout.md). */
export async function registerSellerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(
    '/api/seller/settings',
    routeContract({ summary: 'Your seller settings: the minimum order value', tags, signedIn: true, response: { 200: sellerSettingsSchema } }),
    async (request) => getSellerSettings({ db: ctx.db, user: await requireUser(ctx.auth, request) }),
  );

  app.put(
    '/api/seller/settings',
    routeContract({ summary: 'Set your minimum order value (null for none)', tags, signedIn: true, body: sellerSettingsSchema, response: { 200: sellerSettingsSchema } }),
    async (request) => {
      const user = await requireUser(ctx.auth, request);
      return putSellerSettings({ db: ctx.db, user }, parseInput(sellerSettingsSchema, request.body));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/product/:id/seller',
    routeContract({ summary: "A product's seller and their minimum order", tags, params: z.object({ id: z.string() }), response: { 200: productSellerSchema } }),
    async (request) => getProductSeller(ctx, { id: request.params.id }),
  );
}
