import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_BUSINESS_DELAY_MS, DEFAULT_LOCK_TTL_MS, type CreateOrderRequest, type InventoryView, type ResetProductRequest } from '@oversell/contracts';

/** What the fake saw, so tests compare the load tool's figures with the server's own count. */
export interface FakeOrderService {
  url: string;
  orders: CreateOrderRequest[];
  noops: number;
  /** The x-run-token header of every order and no-op, as sent. */
  runTokens: (string | undefined)[];
  resets: ResetProductRequest[];
  /** The Authorization header of every reset, as sent. */
  resetAuthorizations: (string | undefined)[];
  statusCounts: Record<string, number>;
  /** TCP connections open to the fake right now (a killed client's close when the kernel tears them down). */
  openConnections(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Imitates the order service's HTTP contract: the first `stock` orders are 201, the rest 409 sold_out.
 * Resetting the product sets a new stock, as the real reset does; before any reset, its inventory is a 404.
 */
export async function startFakeOrderService(stock: number): Promise<FakeOrderService> {
  const state: Omit<FakeOrderService, 'url' | 'close' | 'openConnections'> = { orders: [], noops: 0, runTokens: [], resets: [], resetAuthorizations: [], statusCounts: {} };
  let initialStock = stock;
  const reply = (res: ServerResponse, status: number, body: unknown) => {
    state.statusCounts[status] = (state.statusCounts[status] ?? 0) + 1;
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const server = createServer(async (req, res) => {
    const body = await readJson(req);
    const route = `${req.method} ${req.url?.replace(/\/\d+\//, '/:id/')}`;
    if (route === 'POST /api/orders' || route === 'POST /api/noop') state.runTokens.push(req.headers['x-run-token'] as string | undefined);
    switch (route) {
      case 'POST /api/orders': {
        state.orders.push(body as CreateOrderRequest);
        return state.orders.length <= initialStock
          ? reply(res, 201, { id: state.orders.length })
          : reply(res, 409, { statusCode: 409, error: 'sold_out', message: 'sold out' });
      }
      case 'POST /api/noop':
        state.noops += 1;
        return reply(res, 201, {});
      case 'POST /api/products/:id/reset':
        state.resets.push(body as ResetProductRequest);
        state.resetAuthorizations.push(req.headers.authorization);
        state.orders.length = 0;
        initialStock = (body as ResetProductRequest).stock;
        return reply(res, 201, { ...(body as object), runId: 'fake-run' });
      case 'GET /api/products/:id/inventory': {
        if (!state.resets.length) return reply(res, 404, { statusCode: 404, error: 'product_not_found', message: 'product was never reset' });
        const sold = Math.min(state.orders.length, initialStock);
        const view: InventoryView = {
          productId: Number(req.url?.split('/')[3]),
          runId: 'fake-run',
          strategy: state.resets.at(-1)?.strategy ?? 'lua-decrement',
          initialStock,
          lockTtlMs: state.resets.at(-1)?.lockTtlMs ?? DEFAULT_LOCK_TTL_MS,
          businessDelayMs: state.resets.at(-1)?.businessDelayMs ?? DEFAULT_BUSINESS_DELAY_MS,
          remaining: initialStock - sold,
          sold,
          orders: sold,
          oversold: 0,
          storesAgree: true,
          lost: 0,
          lostUpdates: 0,
          soldTwice: 0,
          settledLate: { pending: 0, kept: 0, givenBack: 0 },
          moves: null,
          storeLost: false,
        };
        return reply(res, 200, view);
      }
      default:
        return reply(res, 404, { statusCode: 404, error: 'not_found', message: route });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    openConnections: () => new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count)))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}
