import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { BrokenLocksView, InventoryView, ProductRunSettings } from '@oversell/contracts';
import { InventoryService, LockBreakerService, ProductResetService } from '@oversell/stock';
import { InstanceRegistry, targetFaults } from '@oversell/lab';
import { AdminOnly } from './admin-token.guard';
import { NoBodyFieldsPipe } from './no-body-fields.pipe';
import { ProductIdParam, ResetProductDto } from './reset-product.dto';

@ApiTags('products')
@Controller('api/products')
export class ProductsController {
  constructor(
    private readonly resets: ProductResetService,
    private readonly inventories: InventoryService,
    private readonly lockBreaker: LockBreakerService,
    private readonly instances: InstanceRegistry,
  ) {}

  /** Seeds Redis and MySQL for a fresh run of one strategy; orders of an earlier run no longer count. */
  @Post(':id/reset')
  @AdminOnly()
  @HttpCode(200)
  async reset(@Param() { id }: ProductIdParam, @Body() { faults, ...dto }: ResetProductDto): Promise<ProductRunSettings> {
    return this.resets.reset(id, { ...dto, ...(faults?.length ? { faults: targetFaults(faults, await this.instances.live()) } : {}) });
  }

  /**
   * The lab's "break stale lock" action: deletes the lock(s) of the product's current run, whoever holds
   * them, and logs it. For a lock whose holder died and left it with no expiry (setnx-no-ttl, setnx-expire).
   */
  @Post(':id/break-locks')
  @AdminOnly()
  @HttpCode(200)
  @ApiOkResponse({ description: 'How many lock keys of the current run were deleted (0: none was held, or the strategy holds no lock).' })
  @ApiBadRequestResponse({ description: 'validation_failed: the id is not a whole number in range (field id), or the body has a field (it takes none); nothing is deleted.' })
  @ApiNotFoundResponse({ description: 'product_not_found: the product was never reset.' })
  @ApiServiceUnavailableResponse({ description: 'store_unavailable: Redis or MySQL did not answer; retry.' })
  breakLocks(@Param() { id }: ProductIdParam, @Body(NoBodyFieldsPipe) _noBody: unknown): Promise<BrokenLocksView> {
    return this.lockBreaker.breakStaleLocks(id);
  }

  @Get(':id/inventory')
  inventory(@Param() { id }: ProductIdParam): Promise<InventoryView> {
    return this.inventories.inventory(id);
  }
}
