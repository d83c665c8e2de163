import { Body, Controller, Headers, HttpCode, Post, Res } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { NOOP_TARGET } from '@oversell/contracts';
import type { FastifyReply } from 'fastify';
import { OrderFigures } from '../runs/order-figures';
import { CreateOrderDto } from './create-order.dto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The ceiling: the same route shape, body parsing and validation as an order, and nothing else.
 * Every strategy's throughput is shown as a share of this one's, measured through the same stack.
 */
@ApiTags('ceiling')
@Controller('api/noop')
export class NoopController {
  constructor(private readonly figures: OrderFigures) {}

  @Post()
  @HttpCode(200)
  @ApiHeader({ name: 'x-run-id', required: false, description: 'Counts the request in this lab run (the ceiling run).' })
  noop(@Body() dto: CreateOrderDto, @Res({ passthrough: true }) reply: FastifyReply, @Headers('x-run-id') runId?: string): { ok: true; productId: number } {
    // Counted like an order that succeeded and sold nothing, so the ceiling and the strategies are measured alike.
    if (runId && UUID.test(runId)) this.figures.record({ runId, strategy: NOOP_TARGET }, 'sold', reply.elapsedTime);
    return { ok: true, productId: dto.productId };
  }
}
