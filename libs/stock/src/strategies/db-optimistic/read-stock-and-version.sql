SELECT stock, version FROM products WHERE id = ?
