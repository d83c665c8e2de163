UPDATE products
   SET stock = stock - ?, version = version + 1
 WHERE id = ? AND run_id = ? AND version = ? AND stock >= ?
