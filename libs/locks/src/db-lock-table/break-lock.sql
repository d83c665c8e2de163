DELETE FROM locks WHERE name = ? AND owner IS NOT NULL
