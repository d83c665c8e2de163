import { ApiPropertyOptional } from '@nestjs/swagger';
import { RUN_LIMITS } from '@oversell/contracts';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** The lock and business settings a product reset and a run both take. */
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
}
