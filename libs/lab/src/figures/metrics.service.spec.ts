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

/** Prometheus sees a series' first rise only if it scraped the series before: each one is exported at 0 from the start. */
describe('MetricsService series before any order', () => {
  it('exports every strategy and outcome at 0, and every lock histogram empty, before anything is observed', async () => {
    const scrape = await new MetricsService().registry.metrics();
    expect(scrape).toMatch(/^oversell_orders_total\{strategy="lua-decrement",outcome="sold"\} 0$/m);
    expect(scrape).toMatch(/^oversell_orders_total\{strategy="noop",outcome="sold"\} 0$/m);
    expect(scrape).toMatch(/^oversell_order_duration_seconds_count\{strategy="watchdog",outcome="lock_timeout"\} 0$/m);
    expect(scrape).toMatch(/^oversell_lock_wait_seconds_count\{strategy="naive-setnx"\} 0$/m);
    expect(scrape).toMatch(/^oversell_lock_hold_seconds_count\{strategy="uuid-lua",expired="true"\} 0$/m);
  });

  it('keeps a 12 s lock holding out of the overflow bucket, so quantiles above 10 s read true', async () => {
    const metrics = new MetricsService();
    metrics.lock('watchdog', { lockKey: 'k', instance: 'i', requestId: 'r', requestedAt: 0, acquiredAt: 5, releasedAt: 12_005, expired: false });
    const scrape = await metrics.registry.getSingleMetricAsString('oversell_lock_hold_seconds');
    expect(scrape).toMatch(/^oversell_lock_hold_seconds_bucket\{le="10",strategy="watchdog",expired="false"\} 0$/m);
    expect(scrape).toMatch(/^oversell_lock_hold_seconds_bucket\{le="30",strategy="watchdog",expired="false"\} 1$/m);
  });
});
