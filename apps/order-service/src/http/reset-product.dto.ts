import { ApiProperty } from '@nestjs/swagger';
import { MAX_PRODUCT_ID, MAX_STOCK, STRATEGY_NAMES, type FaultSettings, type ResetProductRequest, type StrategyName } from '@oversell/contracts';
import { Transform } from 'class-transformer';
import { FaultsField, IsIn, IsInt, LockSettingsDto, Max, Min, says } from '@oversell/lab';

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

/**
 * Path parameter :id: decimal digits only, from 1 to MAX_PRODUCT_ID. Number() would also read 0x10,
 * 1e3, +7, 007 and " 7 " as ids, and act on a product the client never named.
 */
export class ProductIdParam {
  @Transform(({ value }) => (typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= MAX_PRODUCT_ID ? Number(value) : value))
  @IsInt(says({ en: `id must be a whole number from 1 to ${MAX_PRODUCT_ID}, in decimal digits`, 'zh-CN': `id 必须是 1 到 ${MAX_PRODUCT_ID} 之间的整数，用十进制数字书写` }))
  id!: number;
}
