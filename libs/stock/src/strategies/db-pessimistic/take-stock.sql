UPDATE products SET stock = stock - ? WHERE id = ? AND run_id = ?
