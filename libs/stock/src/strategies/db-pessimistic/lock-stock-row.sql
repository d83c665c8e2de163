SELECT stock FROM products WHERE id = ? AND run_id = ? FOR UPDATE
