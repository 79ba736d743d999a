import type { ReactNode } from 'react';
import type { Product } from '@bulkcart/contracts/product';
import { ProductImage } from '@/components/product-image.tsx';
import { PriceTag } from '@/components/price-tag.tsx';

/**
 * The All Product table view: image, name, description, brand, category, price and one action (Update
 * on your own products, View Details on others'). Narrower than the table's seven columns, a phone
 * gets the same fields stacked per product, so price and action never sit off screen.
 */
export function ProductTable({ products, action }: { products: Product[]; action: (product: Product) => ReactNode }) {
  return (
    <>
      <StackedProducts products={products} action={action} />
      <WideTable products={products} action={action} />
    </>
  );
}

function StackedProducts({ products, action }: { products: Product[]; action: (product: Product) => ReactNode }) {
  return (
    <ul className="flex flex-col gap-3 sm:hidden" aria-label="Products">
      {products.map((product) => (
        <li key={product._id} className="rounded-box bg-base-100 p-3 shadow-sm ring-1 ring-base-300">
          <div className="flex gap-3">
            <ProductImage src={product.image} alt={product.name} width={64} height={64} className="h-16 w-16 shrink-0 rounded-lg" />
            <div className="min-w-0">
              <p className="font-semibold break-words">{product.name}</p>
              <p className="text-sm text-base-content/75">
                {product.brandname} · {product.category}
              </p>
            </div>
          </div>
          <p className="mt-2 line-clamp-3 text-sm text-base-content/75 break-words">{product.description}</p>
          <div className="mt-2 flex items-center justify-between gap-3">
            <PriceTag product={product} className="font-semibold" />
            {action(product)}
          </div>
        </li>
      ))}
    </ul>
  );
}

function WideTable({ products, action }: { products: Product[]; action: (product: Product) => ReactNode }) {
  return (
    <div className="hidden overflow-x-auto rounded-box bg-base-100 shadow-sm ring-1 ring-base-300 sm:block">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Image</th>
            <th scope="col">Name</th>
            <th scope="col">Description</th>
            <th scope="col">Brand</th>
            <th scope="col">Category</th>
            <th scope="col">Price</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {products.map((product) => (
            <tr key={product._id}>
              <td>
                <ProductImage src={product.image} alt={product.name} width={64} height={64} className="h-16 w-16 rounded-lg" />
              </td>
              <td className="min-w-40 font-semibold break-words">{product.name}</td>
              <td className="min-w-56 max-w-md text-sm text-base-content/75 break-words">
                <span className="line-clamp-3">{product.description}</span>
              </td>
              <td className="whitespace-nowrap">{product.brandname}</td>
              <td className="min-w-36">{product.category}</td>
              <td className="min-w-24">
                <PriceTag product={product} className="font-semibold" />
              </td>
              <td>{action(product)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
