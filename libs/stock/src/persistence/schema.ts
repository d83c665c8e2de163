import { CreateProductsAndOrders1763800000000 } from './migrations/1763800000000-create-products-and-orders';
import { AddOrderRequestId1763800000002 } from './migrations/1763800000002-add-order-request-id';
import { CreateLocksTable1763800000003 } from './migrations/1763800000003-create-locks-table';
import { AddProductSeeded1763800000004 } from './migrations/1763800000004-add-product-seeded';
import { AddProductFaults1763900000001 } from './migrations/1763900000001-add-product-faults';
import { AddProductFence1763900000010 } from './migrations/1763900000010-add-product-fence';
import { AddProductOrderWrite1764000000000 } from './migrations/1764000000000-add-product-order-write';
import { AddProductFenceHolder1764000000001 } from './migrations/1764000000001-add-product-fence-holder';
import { IdempotencyKeyCaseSensitive1764100000000 } from './migrations/1764100000000-idempotency-key-case-sensitive';
import { OrderEntity } from './order.entity';
import { ProductEntity } from './product.entity';

export const STOCK_ENTITIES = [ProductEntity, OrderEntity];
export const STOCK_MIGRATIONS = [CreateProductsAndOrders1763800000000, AddOrderRequestId1763800000002, CreateLocksTable1763800000003, AddProductSeeded1763800000004, AddProductFaults1763900000001, AddProductFence1763900000010, AddProductOrderWrite1764000000000, AddProductFenceHolder1764000000001, IdempotencyKeyCaseSensitive1764100000000];
