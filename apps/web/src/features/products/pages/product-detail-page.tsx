import { useState } from 'react';
import { useParams } from '@/lib/router.tsx';
import { clampQuantity } from '@bulkcart/contracts/quantity';
import { ladderOf } from '@bulkcart/contracts/pricing';
import type { Product } from '@bulkcart/contracts/product';
import { Spinner } from '@/components/spinner.tsx';
import { LoadError } from '@/components/load-error.tsx';
import { RatingStars } from '@/components/rating-stars.tsx';
import { BuyButton } from '@/components/buy-button-slot.tsx';
import { CartAction } from '@/components/cart-actions-slot.tsx';
import { CART_TEXT } from '@bulkcart/contracts/cart-rules';
import { formatMoney, toCents } from '@bulkcart/contracts/money';
import { useProductSeller } from '@/features/products/api/get-product-seller.ts';
import { useProduct } from '@/features/products/api/get-product.ts';
import { ProductGallery } from '@/features/products/components/product-gallery.tsx';
import { isMissingProduct, ProductNotFound } from '@/features/products/components/product-not-found.tsx';
import { CasePackNote, useCasePackRounding } from '@/components/case-pack-note.tsx';
import { PriceTag } from '@/components/price-tag.tsx';
import { StockFlag } from '@/components/stock-flag.tsx';
import { VolumePricing } from '@/features/products/components/volume-pricing.tsx';
import { useBuyerPricing } from '@/lib/auth/pricing.ts';

export function ProductDetailPage() {
  const { id = '' } = useParams();
  const product = useProduct(id);
  if (product.isPending) return <Spinner label="Loading the product" />;
  if (product.isError) {
    return isMissingProduct(product.error) ? <ProductNotFound /> : <LoadError error={product.error} onRetry={() => void product.refetch()} />;
  }
  return <ProductDetails key={product.data._id} product={product.data} />;
}

function ProductDetails({ product }: { product: Product }) {
  // Kept as typed so the field can be cleared while editing; the checkout dialog clamps what it gets.
  const [quantityText, setQuantityText] = useState(String(product.minquantity));
  const typed = Number(quantityText);
  // Whole cases only: a typed 13 with cases of 12 means 24, which is what the dialog will start at.
  const quantity = Number.isInteger(typed) && typed >= 1 ? clampQuantity(typed, product.casepack) : product.minquantity;
  const rounding = useCasePackRounding(quantityText, quantity, product.casepack);
  const ladder = ladderOf(product);
  const { breaksApply } = useBuyerPricing();

  return (
    <article className="flex flex-col gap-10">
      <div className="grid grid-cols-1 gap-8 lg:grid-cols-2">
        <ProductGallery product={product} />
        <div className="flex flex-col gap-4">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wide text-primary/80">{product.category}</p>
            <h1 className="text-2xl font-bold break-words md:text-3xl">{product.name}</h1>
          </div>
          <p className="flex flex-wrap items-center gap-2">
            <RatingStars rating={product.rating} />
            <span className="text-sm text-base-content/70">(120 reviews)</span>
          </p>
          <div className="flex flex-wrap items-center gap-3" data-testid="product-price">
            <PriceTag product={product} className="text-3xl font-bold" />
            {product.discount > 0 ? <span className="badge badge-secondary font-semibold">-{product.discount}%</span> : null}
          </div>
          <StockFlag product={product} />
          {product.description ? <p className="text-base-content/80 break-words">{product.description}</p> : null}
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 rounded-box bg-base-100 p-4 text-sm ring-1 ring-base-300">
            <dt className="font-medium text-base-content/70">Category</dt>
            <dd>{product.category}</dd>
            <dt className="font-medium text-base-content/70">Brand</dt>
            <dd className="break-words">{product.brandname}</dd>
            {product.sku ? (
              <>
                <dt className="font-medium text-base-content/70">SKU</dt>
                <dd className="break-all" data-testid="product-sku">
                  {product.sku}
                </dd>
              </>
            ) : null}
            <dt className="font-medium text-base-content/70">Main quantity</dt>
            <dd>{product.mainquantity}</dd>
            <dt className="font-medium text-base-content/70">Min buy quantity</dt>
            <dd>{product.minquantity}</dd>
            {product.casepack > 1 ? (
              <>
                <dt className="font-medium text-base-content/70">Case pack</dt>
                <dd>{product.casepack} units per case</dd>
              </>
            ) : null}
          </dl>
          <SellerMinimum productId={product._id} />
          {ladder && product.tiers.length > 0 ? (
            <VolumePricing ladder={ladder} minquantity={product.minquantity} quantity={quantity} breaksApply={breaksApply} />
          ) : null}
          <div className="flex flex-wrap items-end gap-3">
            <div className="flex flex-col gap-1 text-sm">
              <label htmlFor="buy-quantity" className="font-medium">
                Quantity
              </label>
              <input
                id="buy-quantity"
                type="number"
                className="input w-36"
                min={product.minquantity}
                step={product.casepack}
                inputMode="numeric"
                value={quantityText}
                onChange={(e) => {
                  rounding.changed();
                  setQuantityText(e.target.value);
                }}
                onBlur={() => {
                  rounding.rounded();
                  setQuantityText(String(quantity));
                }}
                aria-describedby={rounding.showsNote ? 'buy-quantity-cases' : undefined}
              />
            </div>
            <BuyButton product={product} quantity={quantity} label="Buy Now" className="btn btn-secondary" />
            {rounding.showsNote ? <CasePackNote id="buy-quantity-cases" casepack={product.casepack} quantity={quantity} /> : null}
            <CartAction action="cart" product={product} quantity={quantity} className="btn btn-outline btn-primary" />
            <CartAction action="list" product={product} quantity={quantity} className="btn btn-ghost" />
          </div>
        </div>
      </div>
      <section aria-labelledby="more-information" className="rounded-box bg-base-100 p-4 ring-1 ring-base-300 md:p-8">
        <h2 id="more-information" className="mb-3 text-xl font-bold">
          More Information
        </h2>
        <p className="whitespace-pre-line break-words text-base-content/80">{product.Content || 'The seller has not added more information yet.'}</p>
      </section>
    </article>
  );
}

/** "Minimum order from this seller: $X" when the seller has one (their orders must reach it). */
function SellerMinimum({ productId }: { productId: string }) {
  const minimum = useProductSeller(productId).data?.minimumOrder ?? null;
  if (minimum === null) return null;
  return (
    <p className="rounded-box bg-info/10 px-3 py-2 text-sm" data-testid="seller-minimum">
      {CART_TEXT.minimumOrder(formatMoney(toCents(minimum)))}
    </p>
  );
}
