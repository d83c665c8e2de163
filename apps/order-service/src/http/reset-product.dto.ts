import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_STOCK, RUN_LIMITS, STRATEGY_NAMES, type ResetProductRequest, type StrategyName } from '@oversell/contracts';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_PRODUCT_ID } from './create-order.dto';

export class ResetProductDto implements ResetProductRequest {
  @ApiProperty({ minimum: 0, maximum: MAX_STOCK, example: 100 })
  @IsInt()
  @Min(0)
  @Max(MAX_STOCK)
  stock!: number;

  @ApiProperty({ enum: STRATEGY_NAMES })
  @IsIn(STRATEGY_NAMES)
  strategy!: StrategyName;

  @ApiPropertyOptional({ minimum: 1, maximum: RUN_LIMITS.maxLockTtlMs, default: 2000 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(RUN_LIMITS.maxLockTtlMs)
  lockTtlMs?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: RUN_LIMITS.maxBusinessDelayMs, default: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(RUN_LIMITS.maxBusinessDelayMs)
  businessDelayMs?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 64, default: 5 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(64)
  segments?: number;
}

/** Path parameter :id, converted from its string and checked like a body field. */
export class ProductIdParam {
  @Type(() => Number)
  @IsInt({ message: 'id must be a whole number' })
  @Min(1)
  @Max(MAX_PRODUCT_ID)
  id!: number;
}
