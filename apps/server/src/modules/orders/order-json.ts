/**
 * JSON Schema of the contracts' `Order` for Fastify's response serializer: it writes only these
 * fields, so buyer and idempotency columns can never leak into an answer by accident.
 */
export const orderResponseSchema = {
  type: 'object',
  required: ['_id', 'productId', 'quantity', 'data', 'createdAt', 'unitPrice', 'total', 'listUnitPrice', 'tierMinquantity', 'product'],
  properties: {
    _id: { type: 'string' },
    productId: { type: ['string', 'null'] },
    quantity: { type: 'integer' },
    data: { type: 'string' },
    createdAt: { type: 'string' },
    unitPrice: { type: 'number' },
    total: { type: 'number' },
    listUnitPrice: { type: 'number' },
    tierMinquantity: { type: ['integer', 'null'] },
    product: {
      type: 'object',
      required: ['name', 'image', 'brandname', 'category', 'minquantity'],
      properties: {
        name: { type: 'string' },
        image: { type: 'string' },
        brandname: { type: 'string' },
        category: { type: 'string' },
        minquantity: { type: 'integer' },
      },
    },
  },
} as const;

export const orderListResponseSchema = { type: 'array', items: orderResponseSchema } as const;

export const cancelledOrderResponseSchema = {
  type: 'object',
  required: ['_id', 'cancelled'],
  properties: { _id: { type: 'string' }, cancelled: { type: 'boolean' } },
} as const;
