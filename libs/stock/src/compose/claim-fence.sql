UPDATE products SET fence = ?, fence_holder = ? WHERE id = ? AND run_id = ? AND (fence < ? OR (fence = ? AND fence_holder = ?))
