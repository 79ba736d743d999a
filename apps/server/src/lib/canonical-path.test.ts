import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalisePath } from './canonical-path.ts';

describe('canonicalisePath', () => {
  it.each([
    ['/api/order', '/api/order'],
    ['/api/./order', '/api/order'],
    ['/api/x/../order', '/api/order'],
    ['/api/%2e/order', '/api/order'],
    ['/api/%2E%2E/api/order', '/api/order'],
    ['/%61pi/%6Frder', '/api/order'],
    ['/api//order', '/api/order'],
    ['//api///order', '/api/order'],
    ['/../../api/order', '/api/order'],
    ['/api/order/.', '/api/order/'],
    ['/api/order/..', '/api/'],
    ['/api/orders/a%40b.example', '/api/orders/a%40b.example'],
    ['/api/orders/a%2bb', '/api/orders/a%2Bb'],
    ['/api/product/%7E%2D%5F', '/api/product/~-_'],
    ['/api/product/%zz', '/api/product/%zz'],
    ['/', '/'],
    ['*', '*'],
  ])('%s is %s', (raw, canonical) => {
    expect(canonicalisePath(raw)).toEqual({ canonical: true, path: canonical });
  });

  it.each(['/api\\order', '/api%2Forder', '/api%2forder', '/api/%5Corder', '/api/%5c..%5corder'])('refuses %s', (raw) => {
    expect(canonicalisePath(raw).canonical).toBe(false);
  });

  it('is idempotent: a canonical path is its own canonical form', () => {
    const segment = fc.oneof(fc.stringMatching(/^[A-Za-z0-9._~-]{0,6}$/), fc.constantFrom('.', '..', '%2e', '%41', '%40', '%7e', ''));
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segments) => {
        const first = canonicalisePath(`/${segments.join('/')}`);
        if (!first.canonical) return;
        expect(canonicalisePath(first.path)).toEqual(first);
        expect(first.path).not.toMatch(/\/\/|\/\.\.?(\/|$)|%(2[DEde]|4[1-9A-Fa-f]|5[0-9Aa]|6[1-9A-Fa-f]|7[0-9Aa]|3[0-9]|5F|5f|7E|7e)/);
      }),
    );
  });
});
