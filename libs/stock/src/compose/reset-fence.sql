UPDATE products SET fence = 0, fence_holder = NULL WHERE id = ? AND run_id = ?
