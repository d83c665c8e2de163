import type { InventoryView } from '@oversell/contracts';
import type { LoadSummary } from './summary';

/** The few lines the CLI prints after a run: the client's view, then the service's inventory. */
export function formatReport(summary: LoadSummary, inventory: InventoryView | null): string {
  const statuses = Object.entries(summary.statusCounts)
    .map(([status, count]) => `${status}=${count}`)
    .join(' ');
  const { latency } = summary;
  const lines = [
    `client (${summary.driver}, informational): ${summary.requests} responses in ${summary.durationSec}s = ${summary.throughput} req/s`,
    `  status ${statuses || '-'}; errors ${summary.errors} (timeouts ${summary.timeouts})`,
    `  latency ms p50 ${latency.p50}  p90 ${latency.p90}  p99 ${latency.p99}  max ${latency.max}  mean ${latency.mean.toFixed(2)}`,
  ];
  if (inventory) {
    lines.push(
      `server inventory (${inventory.strategy}): sold ${inventory.sold} of ${inventory.initialStock}, remaining ${inventory.remaining}, ` +
        `orders ${inventory.orders}, sold twice ${inventory.soldTwice}, oversold ${inventory.oversold}, stores agree ${inventory.storesAgree ? 'yes' : 'NO'}`,
    );
  }
  return lines.join('\n');
}
