import { ApiPropertyOptional } from '@nestjs/swagger';
import { DEFAULT_ORDER_WRITE, ORDER_WRITES, STRATEGY_SETTINGS, type LockSettings, type OrderWrite } from '@oversell/contracts';

const { lockTtlMs, businessDelayMs, segments } = STRATEGY_SETTINGS;
import { IsOptional } from 'class-validator';
import { IsIn, IsInt, Max, Min } from '../validators';

/** The lock, business and order-write settings a product reset and a run both take. */
export class LockSettingsDto implements LockSettings {
  @ApiPropertyOptional({ minimum: lockTtlMs.min, maximum: lockTtlMs.max, default: lockTtlMs.default, description: 'Lease of the lock strategies\' lock.' })
  @IsOptional()
  @IsInt()
  @Min(lockTtlMs.min)
  @Max(lockTtlMs.max)
  lockTtlMs?: number;

  @ApiPropertyOptional({ minimum: businessDelayMs.min, maximum: businessDelayMs.max, default: businessDelayMs.default, description: 'Time spent inside the critical section; above the TTL the lease expires mid-order.' })
  @IsOptional()
  @IsInt()
  @Min(businessDelayMs.min)
  @Max(businessDelayMs.max)
  businessDelayMs?: number;

  @ApiPropertyOptional({ minimum: segments.min, maximum: segments.max, default: segments.default, description: 'Stock segments of the segmented strategy.' })
  @IsOptional()
  @IsInt()
  @Min(segments.min)
  @Max(segments.max)
  segments?: number;

  @ApiPropertyOptional({
    enum: ORDER_WRITES,
    default: DEFAULT_ORDER_WRITE,
    description:
      "sync: the order row is written before the answer (201). queued: the order is queued in Redis (BullMQ) and written in batches; the answer is 202 with the queued order. stream: the strategy's take script appends the order to the run's Redis Stream in the same atomic step, and stream writers insert it in batches; the answer is 202 with the order (its id is its requestId). stream is a 400 for a strategy whose take is not one script (the db-* rows, mysql-get-lock, watchdog-fenced-mysql); on the Redis Cluster each segment has a stream of its own.",
  })
  @IsOptional()
  @IsIn(ORDER_WRITES)
  orderWrite?: OrderWrite;
}
