import { MetricsService } from './metrics.service';

/** The run queue's depth in /metrics: read at each scrape, and a failed read spoils only its own line. */
describe('MetricsService run queue depth', () => {
  it('serves the depth the queue reports at the moment of each scrape', async () => {
    const metrics = new MetricsService();
    let waiting = 3;
    metrics.watchRunQueue(async () => waiting);
    expect(await metrics.registry.getSingleMetricAsString('oversell_run_queue_depth')).toMatch(/^oversell_run_queue_depth 3$/m);
    waiting = 0;
    expect(await metrics.registry.getSingleMetricAsString('oversell_run_queue_depth')).toMatch(/^oversell_run_queue_depth 0$/m);
  });

  it('serves NaN for the depth when the queue cannot be read, and every other figure as before', async () => {
    const metrics = new MetricsService();
    metrics.order('lua-decrement', 'sold', 12);
    metrics.watchRunQueue(() => Promise.reject(new Error('Redis is unreachable')));
    const scrape = await metrics.registry.metrics();
    // prom-client writes "Nan"; Prometheus reads NaN in any case.
    expect(scrape).toMatch(/^oversell_run_queue_depth nan$/im);
    expect(scrape).toMatch(/^oversell_orders_total\{strategy="lua-decrement",outcome="sold"\} 1$/m);
  });
});
