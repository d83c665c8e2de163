UPDATE products SET fence = 0 WHERE id = ? AND run_id = ?
