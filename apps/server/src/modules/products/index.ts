/** What other modules (search) may use of products: the row → answer mapping and its columns. */
export { productPageColumns, toProductJson, type ProductRecord } from './product-answer.ts';
