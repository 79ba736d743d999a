import type { ReactNode } from 'react';
import type { Product } from '@bulkcart/contracts/product';
import { ProductImage } from './product-image.tsx';
import { PriceTag } from '../../../components/price-tag.tsx';

/** The All Product table view: image, name, description, brand, category, price and one action. */
export function ProductTable({ products, action }: { products: Product[]; action: (product: Product) => ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-box bg-base-100 shadow-sm ring-1 ring-base-300">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Image</th>
            <th scope="col">Name</th>
            <th scope="col">Description</th>
            <th scope="col">Brand</th>
            <th scope="col">Category</th>
            <th scope="col">Price</th>
            <th scope="col">Update</th>
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
