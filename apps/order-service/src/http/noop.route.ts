import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { NOOP_TARGET, type CreateOrderRequest } from '@oversell/contracts';
import { OrderFigures, RunTokens } from '@oversell/lab';
import { orderBodyPost, runTokenOf, type HotRoute } from './hot-route';
import { ORDER_BODY_SCHEMA, orderBodyRefusal } from './order-body';

/**
 * POST /api/noop, the ceiling: the same route, body parsing and validation as an order, and nothing
 * else. Every strategy's throughput is shown as a share of this one's, measured through the same stack.
 */
export const NOOP_ROUTE: HotRoute = {
  path: '/api/noop',
  serve(app: NestFastifyApplication): void {
    const figures = app.get(OrderFigures);
    const tokens = app.get(RunTokens);
    app
      .getHttpAdapter()
      .getInstance()
      .post<{ Body: CreateOrderRequest }>(NOOP_ROUTE.path, { schema: { body: ORDER_BODY_SCHEMA }, schemaErrorFormatter: orderBodyRefusal }, async (request, reply) => {
        const runId = await tokens.runOf(runTokenOf(request));
        // Counted like an order that succeeded and sold nothing, so the ceiling and the strategies are measured alike.
        if (runId) figures.record({ runId, strategy: NOOP_TARGET }, 'sold', reply.elapsedTime);
        return { ok: true, productId: request.body.productId };
      });
  },
  openApi: orderBodyPost({
    operationId: 'noop',
    tag: 'ceiling',
    summary: "The ceiling: an order's route and validation, and nothing else",
    runToken: 'The run token POST /api/runs answered: counts the request in that run (the ceiling run).',
    responses: { 200: '{ ok: true, productId }: nothing was taken.', 400: "The same refusals as an order's body." },
  }),
};
