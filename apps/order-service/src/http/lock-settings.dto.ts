import { ApiPropertyOptional } from '@nestjs/swagger';
import { DEFAULT_ORDER_WRITE, ORDER_WRITES, RUN_LIMITS, type OrderWrite } from '@oversell/contracts';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

/** The lock, business and order-write settings a product reset and a run both take. */
export class LockSettingsDto {
  @ApiPropertyOptional({ minimum: 1, maximum: RUN_LIMITS.maxLockTtlMs, default: 2000, description: 'Lease of the lock strategies\' lock.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(RUN_LIMITS.maxLockTtlMs)
  lockTtlMs?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: RUN_LIMITS.maxBusinessDelayMs, default: 0, description: 'Time spent inside the critical section; above the TTL the lease expires mid-order.' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(RUN_LIMITS.maxBusinessDelayMs)
  businessDelayMs?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 64, default: 5, description: 'Stock segments of the segmented strategy.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(64)
  segments?: number;

  @ApiPropertyOptional({
    enum: ORDER_WRITES,
    default: DEFAULT_ORDER_WRITE,
    description: 'sync: the order row is written before the answer (201). queued: the order is queued in Redis (BullMQ) and written in batches; the answer is 202 with the queued order.',
  })
  @IsOptional()
  @IsIn(ORDER_WRITES)
  orderWrite?: OrderWrite;
}
