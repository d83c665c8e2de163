import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { StrategyDescription } from '@oversell/contracts';
import { STOCK_STRATEGIES, type StrategyRegistry } from '@oversell/stock';

@ApiTags('strategies')
@Controller('api/strategies')
export class StrategiesController {
  constructor(@Inject(STOCK_STRATEGIES) private readonly registry: StrategyRegistry) {}

  @Get()
  list(): StrategyDescription[] {
    return this.registry.describeAll();
  }
}
