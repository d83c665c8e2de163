import { useTranslation } from 'react-i18next';
import { isCeilingTarget, type RunView } from '@oversell/contracts';
import { ProductInventory } from './ProductInventory';

/**
 * What a failed run can say: that it failed and why. Its result was never stored, so it claims no
 * figures of its own (what a stream showed before the failure is neither complete nor reconciled);
 * the product's inventory, read now, is what there is.
 */
export function RunFailedNotice({ run, failure }: { run: RunView; failure: string | null }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="notice notice--error" data-testid="run-failed">
        {failure ? t('runPanel.failedBecause', { failure: failure.replace(/\.$/, '') }) : t('runPanel.failed')}
      </p>
      {!isCeilingTarget(run.params.strategy) && <ProductInventory productId={run.productId} runId={run.id} />}
    </>
  );
}
