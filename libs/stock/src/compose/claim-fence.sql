UPDATE products SET fence = ? WHERE id = ? AND run_id = ? AND fence <= ?
