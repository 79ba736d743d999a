/** What other modules (products) may use of search: the words a product is found by. */
export { buildTsquery, searchWordsOf } from './search-words.ts';
