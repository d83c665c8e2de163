import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  MAX_ORDER_QUANTITY,
  MAX_PRODUCT_ID,
  RUN_LIMITS,
  RUN_TARGETS,
  STRATEGY_NAMES,
  type FaultSettings,
  type LoadProfile,
  type RunBatchRequest,
  type RunParams,
  type ScenarioSettings,
  type RunTarget,
  type StrategyName,
} from '@oversell/contracts';
import { Transform, Type } from 'class-transformer';
import { IsOptional, ValidateIf, ValidateNested } from 'class-validator';
import { ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsString, IsUUID, Matches, Max, MaxLength, Min, says } from '../validators';
import { FaultsField } from '../faults/fault-settings.dto';

import { LockSettingsDto } from './lock-settings.dto';

export class LoadProfileDto implements LoadProfile {
  @ApiProperty({ minimum: 1, maximum: RUN_LIMITS.maxConnections, example: 100 })
  @IsInt()
  @Min(1)
  @Max(RUN_LIMITS.maxConnections)
  connections!: number;

  @ApiPropertyOptional({ minimum: 1, maximum: RUN_LIMITS.maxArrivalRate })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(RUN_LIMITS.maxArrivalRate)
  arrivalRate?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: RUN_LIMITS.maxDurationSec, example: 8 })
  // A run must be bounded: by time, by count, or both.
  @ValidateIf((p: LoadProfileDto) => p.durationSec !== undefined || p.totalRequests === undefined)
  @IsInt(says({ en: 'durationSec must be a whole number of seconds (or give totalRequests)', 'zh-CN': 'durationSec 必须是整秒数（或给出 totalRequests）' }))
  @Min(1)
  @Max(RUN_LIMITS.maxDurationSec)
  durationSec?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: RUN_LIMITS.maxTotalRequests })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(RUN_LIMITS.maxTotalRequests)
  totalRequests?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_ORDER_QUANTITY, default: 1 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ORDER_QUANTITY)
  quantity?: number;
}

/** What one run and a batch share: the stock, the lock settings, the load and the faults. */
class ScenarioSettingsDto extends LockSettingsDto implements ScenarioSettings {
  @ApiProperty({ minimum: 0, maximum: RUN_LIMITS.maxStock, example: 500 })
  @IsInt()
  @Min(0)
  @Max(RUN_LIMITS.maxStock)
  initialStock!: number;

  @ApiProperty({ type: LoadProfileDto })
  // ValidateNested alone lets a missing load and an empty array through: the run would fail later, not here.
  @IsObject(says({ en: 'load must be an object: { connections, durationSec and/or totalRequests }', 'zh-CN': 'load 必须是对象：{ connections, durationSec 和/或 totalRequests }' }))
  @ValidateNested()
  @Type(() => LoadProfileDto)
  load!: LoadProfileDto;

  @ApiPropertyOptional({ description: 'Name of the loadtests/scenarios file this came from.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  @Matches(/^[\w-]+$/)
  scenario?: string;

  @FaultsField()
  faults?: FaultSettings[];
}

export class RunParamsDto extends ScenarioSettingsDto implements RunParams {
  @ApiProperty({ enum: RUN_TARGETS })
  @IsIn(RUN_TARGETS)
  strategy!: RunTarget;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PRODUCT_ID, description: 'A fresh product is used when omitted.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_PRODUCT_ID)
  productId?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsUUID()
  batchId?: string;
}

export class RunBatchDto extends ScenarioSettingsDto implements RunBatchRequest {
  @ApiPropertyOptional({ enum: STRATEGY_NAMES, isArray: true, description: 'Defaults to every strategy.' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(STRATEGY_NAMES, { each: true })
  strategies?: StrategyName[];

  @ApiPropertyOptional({ default: true, description: 'Queue a discarded warm-up no-op run, then the no-op ceiling, before the strategies.' })
  @IsOptional()
  @IsBoolean()
  includeCeiling?: boolean;
}

export class RunIdParam {
  // A UUID in either case names the same run; the event bus's channels use the lower case the ids are made in.
  @Transform(({ value }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @IsUUID()
  id!: string;
}
