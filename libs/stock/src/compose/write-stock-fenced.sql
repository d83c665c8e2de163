UPDATE products SET stock = ?, fence = ? WHERE id = ? AND run_id = ? AND fence <= ?
