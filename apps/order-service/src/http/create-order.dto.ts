import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_ORDER_QUANTITY, STRATEGY_NAMES, type CreateOrderRequest, type StrategyName } from '@oversell/contracts';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';

export const MAX_PRODUCT_ID = 2_147_483_647;

export class CreateOrderDto implements CreateOrderRequest {
  @ApiProperty({ minimum: 1, maximum: MAX_PRODUCT_ID, example: 42 })
  @IsInt()
  @Min(1)
  @Max(MAX_PRODUCT_ID)
  productId!: number;

  @ApiProperty({ minimum: 1, maximum: MAX_ORDER_QUANTITY, example: 1 })
  @IsInt()
  @Min(1)
  @Max(MAX_ORDER_QUANTITY)
  quantity!: number;

  @ApiProperty({ enum: STRATEGY_NAMES, example: 'lua-decrement' })
  @IsIn(STRATEGY_NAMES)
  strategy!: StrategyName;

  @ApiPropertyOptional({ description: 'A retry with the same key returns the first order instead of taking stock again.', maxLength: 128 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  @Matches(/^[\x21-\x7e]+$/, { message: 'idempotencyKey must be printable ASCII without spaces' })
  idempotencyKey?: string;
}
