import { ApiProperty } from '@nestjs/swagger';
import { MAX_STOCK, STRATEGY_NAMES, type FaultSettings, type ResetProductRequest, type StrategyName } from '@oversell/contracts';
import { Type } from 'class-transformer';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { FaultsField } from '../faults/fault-settings.dto';
import { MAX_PRODUCT_ID } from './create-order.dto';
import { LockSettingsDto } from './lock-settings.dto';

export class ResetProductDto extends LockSettingsDto implements ResetProductRequest {
  @ApiProperty({ minimum: 0, maximum: MAX_STOCK, example: 100 })
  @IsInt()
  @Min(0)
  @Max(MAX_STOCK)
  stock!: number;

  @ApiProperty({ enum: STRATEGY_NAMES })
  @IsIn(STRATEGY_NAMES)
  strategy!: StrategyName;

  @FaultsField()
  faults?: FaultSettings[];
}

/** Path parameter :id, converted from its string and checked like a body field. */
export class ProductIdParam {
  @Type(() => Number)
  @IsInt({ message: 'id must be a whole number' })
  @Min(1)
  @Max(MAX_PRODUCT_ID)
  id!: number;
}
