UPDATE locks SET owner = NULL WHERE name = ? AND owner IS NOT NULL
