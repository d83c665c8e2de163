import { resetProduct } from './product-api';
import { startFakeOrderService, type FakeOrderService } from './test-support/fake-order-service';

describe('resetProduct', () => {
  let service: FakeOrderService;
  beforeEach(async () => {
    service = await startFakeOrderService(10);
  });
  afterEach(() => service.close());

  it('carries the admin token it is given (a reset is an admin action), and none without one', async () => {
    await resetProduct(service.url, 1, { stock: 5, strategy: 'lua-decrement' }, 'lab-admin-token-0123456789');
    await resetProduct(service.url, 1, { stock: 5, strategy: 'lua-decrement' }, undefined);
    expect(service.resetAuthorizations).toEqual(['Bearer lab-admin-token-0123456789', undefined]);
  });
});
