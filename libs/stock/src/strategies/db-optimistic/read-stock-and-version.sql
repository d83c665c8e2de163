SELECT stock, version FROM products WHERE id = ? AND run_id = ?
