import { CreateProductsAndOrders1763800000000 } from './migrations/1763800000000-create-products-and-orders';
import { OrderEntity } from './order.entity';
import { ProductEntity } from './product.entity';

export const STOCK_ENTITIES = [ProductEntity, OrderEntity];
export const STOCK_MIGRATIONS = [CreateProductsAndOrders1763800000000];
