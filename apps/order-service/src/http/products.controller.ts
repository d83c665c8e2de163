import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { InventoryView, ProductRunSettings } from '@oversell/contracts';
import { InventoryService, ProductResetService } from '@oversell/stock';
import { ProductIdParam, ResetProductDto } from './reset-product.dto';

@ApiTags('products')
@Controller('api/products')
export class ProductsController {
  constructor(
    private readonly resets: ProductResetService,
    private readonly inventories: InventoryService,
  ) {}

  /** Seeds Redis and MySQL for a fresh run of one strategy; orders of an earlier run no longer count. */
  @Post(':id/reset')
  @HttpCode(200)
  reset(@Param() { id }: ProductIdParam, @Body() dto: ResetProductDto): Promise<ProductRunSettings> {
    return this.resets.reset(id, dto);
  }

  @Get(':id/inventory')
  inventory(@Param() { id }: ProductIdParam): Promise<InventoryView> {
    return this.inventories.inventory(id);
  }
}
