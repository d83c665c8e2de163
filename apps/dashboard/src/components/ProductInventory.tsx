import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  const inventory = useInventory(productId);
  if (inventory.error) return <ServiceError error={inventory.error} action={t('errors.action.readInventory', { id: productId })} />;
  if (!inventory.data) return <p className="empty">{t('inventory.reading', { id: productId })}</p>;
  const { sold, oversold, remaining, storesAgree } = inventory.data;
  return (
    <section className="panel" data-testid="product-inventory" aria-label={t('inventory.title', { id: productId })}>
      <h3>{t('inventory.title', { id: productId })}</h3>
      <p className="run-meta">
        {inventory.data.runId === runId ? t('inventory.asHeld') : t('inventory.asHeldSinceReset', { runId: inventory.data.runId })}
      </p>
      <dl className="outcomes-grid">
        <div>
          <dt>{t('inventory.sold')}</dt>
          <dd data-testid="inventory-sold">{formatCount(sold)}</dd>
        </div>
        <div>
          <dt>{t('inventory.oversold')}</dt>
          <dd data-testid="inventory-oversold" className={oversold > 0 ? 'alarm-text' : undefined}>
            {formatCount(oversold)}
          </dd>
        </div>
        <div>
          <dt>{t('inventory.remaining')}</dt>
          <dd data-testid="inventory-remaining">{formatCount(remaining)}</dd>
        </div>
        <div>
          <dt>{t('inventory.storesAgree')}</dt>
          <dd data-testid="inventory-stores-agree" className={storesAgree ? undefined : 'alarm-text'}>
            {storesAgree ? t('common.yes') : t('common.no')}
          </dd>
        </div>
      </dl>
    </section>
  );
}
