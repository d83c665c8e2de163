import { Body, Controller, Headers, Post, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiConflictResponse, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { RUN_TOKEN_HEADER, type ErrorBody, type PlacedOrder } from '@oversell/contracts';
import { OrderPlacementService } from '@oversell/stock';
import type { FastifyReply } from 'fastify';
import { MetricsService } from '../figures/metrics.service';
import { OrderFigures } from '../figures/order-figures';
import { RunTokens } from '../runs/run-tokens';
import { CreateOrderDto } from './create-order.dto';

const REFUSALS: Record<'sold_out' | 'conflict' | 'lock_timeout' | 'lock_lost' | 'fenced', (dto: CreateOrderDto, conflicts: number) => ErrorBody> = {
  sold_out: (dto) => ({ statusCode: 409, error: 'sold_out', message: `product ${dto.productId} has fewer than ${dto.quantity} units left` }),
  conflict: (_dto, conflicts) => ({ statusCode: 409, error: 'conflict', message: `gave up after ${conflicts} optimistic conflicts; retry` }),
  lock_timeout: () => ({ statusCode: 503, error: 'lock_timeout', message: 'the lock was not free within the wait timeout; nothing was taken; retry' }),
  lock_lost: () => ({ statusCode: 503, error: 'lock_lost', message: 'the lock was lost before the stock was written; nothing was taken; retry' }),
  fenced: () => ({ statusCode: 503, error: 'fenced', message: 'the stock refused this holder\'s fencing token: the lock had passed to a newer holder; nothing was taken; retry' }),
};

@ApiTags('orders')
@Controller('api/orders')
export class OrdersController {
  constructor(
    private readonly placement: OrderPlacementService,
    private readonly figures: OrderFigures,
    private readonly tokens: RunTokens,
    private readonly metrics: MetricsService,
  ) {}

  @Post()
  @ApiCreatedResponse({ description: 'The order; stock was taken.' })
  @ApiAcceptedResponse({ description: "orderWrite 'queued': stock was taken and the order is queued to be written (id null, requestId, queued: true); its row follows." })
  @ApiOkResponse({ description: 'An order with this idempotency key already existed; it is returned again and no stock is taken.' })
  @ApiConflictResponse({ description: 'sold_out, conflict (optimistic retries exhausted), strategy_mismatch or stock_not_seeded.' })
  @ApiServiceUnavailableResponse({ description: 'lock_timeout, lock_lost, fenced or store_unavailable: nothing was taken; retry. stock_store_lost: Redis lost the run\'s stock; reset the product.' })
  @ApiHeader({ name: RUN_TOKEN_HEADER, required: false, description: "The run token POST /api/runs answered: counts the order in the run's figures when the product is that run's." })
  create(@Body() dto: CreateOrderDto, @Res({ passthrough: true }) reply: FastifyReply, @Headers(RUN_TOKEN_HEADER) runToken?: string): Promise<PlacedOrder | ErrorBody> {
    return this.figures.track(() => this.place(dto, reply, runToken));
  }

  private async place(dto: CreateOrderDto, reply: FastifyReply, runToken: string | undefined): Promise<PlacedOrder | ErrorBody> {
    const [{ result, settings }, tokenRun] = await Promise.all([this.placement.place(dto), this.tokens.runOf(runToken)]);
    const replayed = result.outcome === 'sold' && result.order.replayed;
    const outcome = replayed ? 'replayed' : result.outcome;
    const units = result.outcome === 'sold' && !replayed ? result.order.quantity : 0;
    // elapsedTime counts from the request's arrival: parsing and validation included, as for the no-op.
    // The run's figures take only its own load; every order still shows in the instance's metrics.
    if (tokenRun === settings.runId) this.figures.record(settings, outcome, reply.elapsedTime, units, 'conflicts' in result ? result.conflicts : 0);
    else this.metrics.order(settings.strategy, outcome, reply.elapsedTime);
    if (result.outcome === 'sold') {
      void reply.status(result.order.replayed ? 200 : 'queued' in result.order ? 202 : 201);
      return result.order;
    }
    if (result.outcome === 'error') throw result.error;
    // Expected refusals are answered, not thrown: in a flash sale most requests end sold out, and an
    // exception per request would cost more than the deduction.
    const refusal = REFUSALS[result.outcome](dto, 'conflicts' in result ? (result.conflicts ?? 0) : 0);
    void reply.status(refusal.statusCode);
    return refusal;
  }
}
