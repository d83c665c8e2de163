import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { errorBodyIn, type CreateOrderRequest, type ErrorBody, type LocalizedErrorBody, type PlacedOrder } from '@oversell/contracts';
import { OrderPlacementService } from '@oversell/stock';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MetricsService, OrderFigures, RunTokens } from '@oversell/lab';
import { ORDER_BODY_SCHEMA, orderBodyRefusal } from './order-body';
import { orderBodyPost, runTokenOf, type HotRoute } from './hot-route';
import { errorLocale } from './request-locale';

const REFUSALS: Record<'sold_out' | 'conflict' | 'lock_timeout' | 'lock_lost' | 'fenced', (order: CreateOrderRequest, conflicts: number) => LocalizedErrorBody> = {
  sold_out: (order) => ({ statusCode: 409, error: 'sold_out', message: { en: `product ${order.productId} has fewer than ${order.quantity} units left`, 'zh-CN': `商品 ${order.productId} 剩余不足 ${order.quantity} 件` } }),
  conflict: (_order, conflicts) => ({ statusCode: 409, error: 'conflict', message: { en: `gave up after ${conflicts} optimistic conflicts; retry`, 'zh-CN': `乐观锁冲突 ${conflicts} 次后放弃；请重试` } }),
  lock_timeout: () => ({ statusCode: 503, error: 'lock_timeout', message: { en: 'the lock was not free within the wait timeout; nothing was taken; retry', 'zh-CN': '等待超时内锁一直未释放；没有扣减库存；请重试' } }),
  lock_lost: () => ({ statusCode: 503, error: 'lock_lost', message: { en: 'the lock was lost before the stock was written; nothing was taken; retry', 'zh-CN': '写入库存前锁已丢失；没有扣减库存；请重试' } }),
  fenced: () => ({
    statusCode: 503,
    error: 'fenced',
    message: {
      en: "the stock refused this holder's fencing token: the lock had passed to a newer holder; nothing was taken; retry",
      'zh-CN': '库存拒绝了该持有者的栅栏令牌：锁已交给更新的持有者；没有扣减库存；请重试',
    },
  }),
};

/**
 * POST /api/orders: takes stock with the product's strategy and records the order. Served by Fastify
 * itself, outside Nest's router, like the no-op: see hot-route.ts.
 */
export const ORDERS_ROUTE: HotRoute = {
  path: '/api/orders',
  serve(app: NestFastifyApplication): void {
    const placement = app.get(OrderPlacementService);
    const figures = app.get(OrderFigures);
    const tokens = app.get(RunTokens);
    const metrics = app.get(MetricsService);

    async function place(request: FastifyRequest<{ Body: CreateOrderRequest }>, reply: FastifyReply, runToken: string | undefined): Promise<PlacedOrder | ErrorBody> {
      const order = request.body;
      // Looked up while the order is placed, without a Promise.all per order: runOf never rejects.
      const tokenRun = tokens.runOf(runToken);
      const { result, settings } = await placement.place(order);
      const replayed = result.outcome === 'sold' && result.order.replayed;
      const outcome = replayed ? 'replayed' : result.outcome;
      const units = result.outcome === 'sold' && !replayed ? result.order.quantity : 0;
      // elapsedTime counts from the request's arrival: parsing and validation included, as for the no-op.
      // The run's figures take only its own load; every order still shows in the instance's metrics.
      if ((await tokenRun) === settings.runId) figures.record(settings, outcome, reply.elapsedTime, units, 'conflicts' in result ? result.conflicts : 0);
      else metrics.order(settings.strategy, outcome, reply.elapsedTime);
      if (result.outcome === 'sold') {
        void reply.status(result.order.replayed ? 200 : 'queued' in result.order ? 202 : 201);
        return result.order;
      }
      if (result.outcome === 'error') throw result.error;
      // Expected refusals are answered, not thrown: in a flash sale most requests end sold out, and an
      // exception per request would cost more than the deduction.
      const refusal = REFUSALS[result.outcome](order, 'conflicts' in result ? (result.conflicts ?? 0) : 0);
      void reply.status(refusal.statusCode);
      return errorBodyIn(refusal, errorLocale(request));
    }

    app
      .getHttpAdapter()
      .getInstance()
      .post<{ Body: CreateOrderRequest }>(ORDERS_ROUTE.path, { schema: { body: ORDER_BODY_SCHEMA }, schemaErrorFormatter: orderBodyRefusal }, (request, reply) =>
        figures.track(() => place(request, reply, runTokenOf(request))),
      );
  },
  openApi: orderBodyPost({
    operationId: 'placeOrder',
    tag: 'orders',
    summary: "Places an order: takes stock with the product's strategy",
    runToken: "The run token POST /api/runs answered: counts the order in the run's figures when the product is that run's.",
    responses: {
      201: 'The order; stock was taken.',
      202: "orderWrite 'queued' or 'stream': stock was taken and the order is queued to be written (id null, requestId, queued: true; the order's id is its requestId, the row's request_id); its row follows.",
      200: 'An order with this idempotency key already existed; it is returned again and no stock is taken.',
      400: 'validation_failed (each field at fault in details), unknown_strategy or malformed_json; nothing was taken.',
      409: 'sold_out, conflict (optimistic retries exhausted), strategy_mismatch or stock_not_seeded.',
      503: "lock_timeout, lock_lost, fenced or store_unavailable: nothing was taken; retry. stock_store_lost: Redis lost the run's stock; reset the product.",
    },
  }),
};
