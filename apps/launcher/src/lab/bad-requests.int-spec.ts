import { describeBadRequests, JSON_HEADERS, BAD_REQUEST_PRODUCT, sendEndlessBody } from '@oversell/contracts/testing';
import type { Lab } from './lab';
import { keepAliveClient, type KeepAliveClient } from '../testing/keep-alive-client';
import { startTestLab } from '../testing/test-lab';

/**
 * The API's bad requests (the table the order-service's API test runs on an instance) over real
 * sockets, straight to an instance and through the gateway (nginx), the README's entry point: each must get
 * the same answer, change nothing, and leave its keep-alive connection usable for the next request.
 */
let lab: Lab;

beforeAll(async () => {
  lab = await startTestLab(1);
});

afterAll(async () => {
  await lab?.stop();
});

describe.each([
  // The instance reads at most 64 × its 16 KiB limit of an endless body and lingers for as much again; the
  // rest is socket buffers. nginx, the gateway, drains it for its lingering time instead (30 s at most).
  ['an instance', () => lab.instances[0].url, 32 * 1024 ** 2],
  ['the gateway', () => lab.gatewayUrl, 1024 ** 3 + 1],
])('through %s', (_entry, baseUrl, drainedAtMost) => {
  let client: KeepAliveClient;

  beforeAll(() => {
    client = keepAliveClient(baseUrl());
  });

  afterAll(() => client.close());

  describeBadRequests(() => client.send);

  it('sells an order sent with Expect: 100-continue, as curl sends a large body', async () => {
    const productId = 100_000 + Math.floor(Math.random() * 2_000_000_000);
    const reset = await client.send({ method: 'POST', path: `/api/products/${productId}/reset`, body: JSON.stringify(BAD_REQUEST_PRODUCT), headers: JSON_HEADERS });
    expect(reset.status).toBe(200);
    const order = { productId, quantity: 1, strategy: BAD_REQUEST_PRODUCT.strategy };
    const sold = await client.send({ method: 'POST', path: '/api/orders', body: JSON.stringify(order), headers: { ...JSON_HEADERS, expect: '100-continue' } });
    expect(sold).toMatchObject({ status: 201, body: { productId, quantity: 1 } });
    const inventory = await client.send({ method: 'GET', path: `/api/products/${productId}/inventory` });
    expect(inventory.body).toMatchObject({ remaining: BAD_REQUEST_PRODUCT.stock - 1, sold: 1, orders: 1 });
  });

  it('stops reading an endless body (declared 1 GiB): 413 with Connection: close after a few MB, and the entry point still answers', async () => {
    const answer = await sendEndlessBody(Number(new URL(baseUrl()).port), '/api/orders');
    expect(answer).toMatchObject({ status: 413, closed: true, headers: { connection: 'close' } });
    expect(answer.bodyBytesWritten).toBeLessThan(drainedAtMost);
    expect((await client.send({ method: 'GET', path: '/api/strategies' })).status).toBe(200);
  });
});
