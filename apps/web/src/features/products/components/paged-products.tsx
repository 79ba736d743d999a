import type { ReactNode } from 'react';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { Product } from '@bulkcart/contracts/product';
import type { ApiPage } from '@/lib/api-client.ts';
import { Spinner } from '@/components/spinner.tsx';
import { LoadError } from '@/components/load-error.tsx';
import { PagedListEnd } from '@/components/paged-list-end.tsx';

interface PagedProductsProps {
  query: UseInfiniteQueryResult<InfiniteData<ApiPage<Product>>>;
  /** Shown when the list has no product at all. */
  empty: ReactNode;
  children: (products: Product[]) => ReactNode;
}

/**
 * The states every product list goes through: a spinner while the first page loads, the error with
 * Retry when it fails (never an endless spinner), the empty message, then the items and "Load more".
 */
export function PagedProducts({ query, empty, children }: PagedProductsProps) {
  if (query.isPending) return <Spinner label="Loading products" />;
  if (!query.data) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  const products = query.data.pages.flatMap((page) => page.items);
  return (
    <>
      {products.length === 0 ? empty : children(products)}
      <PagedListEnd query={query} loadOnScroll />
    </>
  );
}
