UPDATE locks SET owner = ? WHERE name = ? AND owner IS NULL
