UPDATE products SET stock = ? WHERE id = ? AND run_id = ?
