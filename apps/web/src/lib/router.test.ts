import { describe, expect, it } from 'vitest';
import { isActivePath } from './router.tsx';

describe('isActivePath (NavLink)', () => {
  it('is active on its page and below it, in any letter case and with a trailing slash', () => {
    expect(isActivePath('/allproduct', '/allproduct', false)).toBe(true);
    expect(isActivePath('/allproduct', '/AllProduct/', false)).toBe(true);
    expect(isActivePath('/categories', '/Categories', false)).toBe(true);
    expect(isActivePath('/myproduct', '/myproduct/extra', false)).toBe(true);
  });

  it('is not active on a page that only starts with the same letters', () => {
    expect(isActivePath('/cart', '/cartons', false)).toBe(false);
    expect(isActivePath('/allproduct', '/product/1', false)).toBe(false);
  });

  it('home is active only on home; `end` means exactly the page', () => {
    expect(isActivePath('/', '/', true)).toBe(true);
    expect(isActivePath('/', '/cart', true)).toBe(false);
    expect(isActivePath('/', '/cart', false)).toBe(false);
    expect(isActivePath('/myproduct', '/myproduct/extra', true)).toBe(false);
  });
});
