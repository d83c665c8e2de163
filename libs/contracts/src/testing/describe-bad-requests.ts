import { JSON_HEADERS, type SendRequest } from './api-client';
import { BAD_REQUEST_PRODUCT, BAD_REQUESTS } from './bad-requests';

/** A product id no other test uses (the API takes ids up to 2^31 - 1). */
function unusedProductId(): number {
  return 100_000 + Math.floor(Math.random() * 2_000_000_000);
}

/**
 * Registers one test per bad request against an entry point of the API: the answer's status, code,
 * field and message, then that nothing changed (stock and orders of the product, the course's state). The inventory is read
 * with the same sender right after the refusal, so a keep-alive sender proves the refusal left its
 * connection usable.
 */
export function describeBadRequests(send: () => SendRequest): void {
  let productId: number;

  beforeEach(async () => {
    productId = unusedProductId();
    const reset = await send()({ method: 'POST', path: `/api/products/${productId}/reset`, body: JSON.stringify(BAD_REQUEST_PRODUCT), headers: JSON_HEADERS });
    expect(reset.status).toBe(200);
  });

  it.each(BAD_REQUESTS.map((bad) => [bad.case, bad] as const))('refuses %s with a clear error, and changes nothing', async (_case, bad) => {
    const course = await send()({ method: 'GET', path: '/api/course' });
    const answer = await send()(bad.request(productId));
    expect(answer.status).toBe(bad.status);
    expect(answer.body).toMatchObject({ statusCode: bad.status, error: bad.error });
    expect(typeof answer.body.message).toBe('string');
    if (bad.field) expect(answer.body.field).toBe(bad.field);
    if (bad.message) expect(answer.body.message).toContain(bad.message);

    const inventory = await send()({ method: 'GET', path: `/api/products/${productId}/inventory` });
    const { stock } = BAD_REQUEST_PRODUCT;
    expect(inventory).toMatchObject({ status: 200, body: { initialStock: stock, remaining: stock, sold: 0, orders: 0, oversold: 0, storesAgree: true } });
    expect(await send()({ method: 'GET', path: '/api/course' })).toEqual(course);
  });
}
