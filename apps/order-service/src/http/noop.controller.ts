import { Body, Controller, Headers, HttpCode, Post, Res } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { NOOP_TARGET, RUN_TOKEN_HEADER } from '@oversell/contracts';
import type { FastifyReply } from 'fastify';
import { OrderFigures } from '../figures/order-figures';
import { RunTokens } from '../runs/run-tokens';
import { CreateOrderDto } from './create-order.dto';

/**
 * The ceiling: the same route shape, body parsing and validation as an order, and nothing else.
 * Every strategy's throughput is shown as a share of this one's, measured through the same stack.
 */
@ApiTags('ceiling')
@Controller('api/noop')
export class NoopController {
  constructor(
    private readonly figures: OrderFigures,
    private readonly tokens: RunTokens,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiHeader({ name: RUN_TOKEN_HEADER, required: false, description: 'The run token POST /api/runs answered: counts the request in that run (the ceiling run).' })
  async noop(@Body() dto: CreateOrderDto, @Res({ passthrough: true }) reply: FastifyReply, @Headers(RUN_TOKEN_HEADER) runToken?: string): Promise<{ ok: true; productId: number }> {
    const runId = await this.tokens.runOf(runToken);
    // Counted like an order that succeeded and sold nothing, so the ceiling and the strategies are measured alike.
    if (runId) this.figures.record({ runId, strategy: NOOP_TARGET }, 'sold', reply.elapsedTime);
    return { ok: true, productId: dto.productId };
  }
}
