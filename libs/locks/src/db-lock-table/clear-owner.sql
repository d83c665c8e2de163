UPDATE locks SET owner = NULL WHERE name = ? AND owner = ?
