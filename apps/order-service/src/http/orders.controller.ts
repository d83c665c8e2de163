import { Body, Controller, Post, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { OrderView } from '@oversell/contracts';
import { OrderPlacementService } from '@oversell/stock';
import type { FastifyReply } from 'fastify';
import { OrderFigures } from '../runs/order-figures';
import { CreateOrderDto } from './create-order.dto';
import { ApiError } from './error-body';

@ApiTags('orders')
@Controller('api/orders')
export class OrdersController {
  constructor(
    private readonly placement: OrderPlacementService,
    private readonly figures: OrderFigures,
  ) {}

  @Post()
  @ApiCreatedResponse({ description: 'The order; stock was taken.' })
  @ApiOkResponse({ description: 'An order with this idempotency key already existed; it is returned again and no stock is taken.' })
  @ApiConflictResponse({ description: 'sold_out, conflict (optimistic retries exhausted), strategy_mismatch or stock_not_seeded.' })
  @ApiServiceUnavailableResponse({ description: 'lock_timeout, lock_lost or store_unavailable: nothing was taken; retry.' })
  create(@Body() dto: CreateOrderDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<OrderView> {
    return this.figures.track(() => this.place(dto, reply));
  }

  private async place(dto: CreateOrderDto, reply: FastifyReply): Promise<OrderView> {
    const { result, settings } = await this.placement.place(dto);
    const units = result.outcome === 'sold' && !result.order.replayed ? result.order.quantity : 0;
    // elapsedTime counts from the request's arrival: parsing and validation included, as for the no-op.
    this.figures.record(settings, result.outcome, reply.elapsedTime, units, 'conflicts' in result ? result.conflicts : 0);
    switch (result.outcome) {
      case 'sold':
        void reply.status(result.order.replayed ? 200 : 201);
        return result.order;
      case 'sold_out':
        throw new ApiError(409, 'sold_out', `product ${dto.productId} has fewer than ${dto.quantity} units left`);
      case 'conflict':
        throw new ApiError(409, 'conflict', `gave up after ${result.conflicts} optimistic conflicts; retry`);
      case 'lock_timeout':
        throw new ApiError(503, 'lock_timeout', 'the lock was not free within the wait timeout; nothing was taken; retry');
      case 'lock_lost':
        throw new ApiError(503, 'lock_lost', 'the lock was lost before the stock was written; nothing was taken; retry');
      case 'error':
        throw result.error;
    }
  }
}
