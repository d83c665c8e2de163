import { useInventory } from '../api/queries';
import { formatCount } from '../lib/format';
import { ServiceError } from './ServiceError';

interface ProductInventoryProps {
  productId: number;
  /** The run the product was reset for; the product may have been reset for a later one since. */
  runId: string;
}

/** A product's stock and orders as the stores hold them now (GET /api/products/:id/inventory), not a run's recorded figures. */
export function ProductInventory({ productId, runId }: ProductInventoryProps) {
  const inventory = useInventory(productId);
  if (inventory.error) return <ServiceError error={inventory.error} action={`read product ${productId}'s inventory`} />;
  if (!inventory.data) return <p className="empty">Reading product {productId}'s inventory…</p>;
  const { sold, oversold, remaining, storesAgree } = inventory.data;
  return (
    <section className="panel" data-testid="product-inventory" aria-label={`Product ${productId}'s inventory now`}>
      <h3>Product {productId}'s inventory now</h3>
      <p className="run-meta">
        As the stores hold it at this moment, not figures recorded by the run
        {inventory.data.runId !== runId && ` (the product has since been reset for run ${inventory.data.runId})`}.
      </p>
      <dl className="outcomes-grid">
        <div>
          <dt>sold</dt>
          <dd data-testid="inventory-sold">{formatCount(sold)}</dd>
        </div>
        <div>
          <dt>oversold</dt>
          <dd data-testid="inventory-oversold" className={oversold > 0 ? 'alarm-text' : undefined}>
            {formatCount(oversold)}
          </dd>
        </div>
        <div>
          <dt>remaining</dt>
          <dd data-testid="inventory-remaining">{formatCount(remaining)}</dd>
        </div>
        <div>
          <dt>stores agree</dt>
          <dd data-testid="inventory-stores-agree" className={storesAgree ? undefined : 'alarm-text'}>
            {storesAgree ? 'yes' : 'no'}
          </dd>
        </div>
      </dl>
    </section>
  );
}
