SELECT 1 FROM locks WHERE name = ? AND owner = ?
