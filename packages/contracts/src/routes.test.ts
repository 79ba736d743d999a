import { describe, expect, it } from 'vitest';
import { hrefOf, matchPattern, pages, paths, titleForPath } from './routes.ts';

describe('pages, hrefs and titles from one table', () => {
  it('builds every href from its pattern', () => {
    expect(paths.updateProduct('a1')).toBe('/upadateprocuct/a1');
    expect(paths.product('a/b c')).toBe('/product/a%2Fb%20c');
    expect(hrefOf('cart')).toBe('/cart');
    expect(paths.categories).toBe('/Categories');
  });

  it('matches as the router does: any letter case and one trailing slash', () => {
    expect(matchPattern(pages.product.pattern, '/Product/abc/')).toEqual({ id: 'abc' });
    expect(matchPattern(pages.product.pattern, '/product/a%2Fb')).toEqual({ id: 'a/b' });
    expect(matchPattern(pages.product.pattern, '/product/%E0')).toEqual({ id: '%E0' });
    expect(matchPattern(pages.product.pattern, '/product/')).toBeNull();
    expect(matchPattern(pages.product.pattern, '/product/a/b')).toBeNull();
    expect(matchPattern(pages.home.pattern, '/')).toEqual({});
    expect(matchPattern(pages.home.pattern, '/x')).toBeNull();
  });

  it('titles each page by its entry, and anything else as not found', () => {
    expect(titleForPath('/')).toBe('wholesale-platform');
    expect(titleForPath('/CART/')).toBe('Cart');
    expect(titleForPath('/categories')).toBe('Categories');
    expect(titleForPath('/upadateprocuct/1')).toBe('wholesale-platform-Update Product');
    expect(titleForPath('/Product/1/')).toBe('wholesale-platform-Details');
    expect(titleForPath('/addproduct')).toBe('wholesale-platform-Add Product');
    expect(titleForPath('/login')).toBe('wholesale-platform-login');
    expect(titleForPath('/product')).toBe('Not Found Page');
    expect(titleForPath('/nope')).toBe('Not Found Page');
    expect(titleForPath('/orders/abc')).toBe('wholesale-platform-Order');
    expect(titleForPath('/Sales/')).toBe('wholesale-platform-Sales');
    expect(paths.order('a b')).toBe('/orders/a%20b');
  });
});
