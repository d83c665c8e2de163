INSERT IGNORE INTO locks (name, owner) VALUES (?, ?)
