-- A new name inserts its row already taken. An existing row is taken only when it is free or its
-- lease has passed by the database's own clock (UTC, whatever the session's time zone).
-- owner is assigned first and expires_at follows it (MySQL assigns left to right): the lease moves
-- only when the row has just become ours.
INSERT INTO locks (name, owner, expires_at)
VALUES (?, ?, UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND)
ON DUPLICATE KEY UPDATE
  owner = IF(owner IS NULL OR expires_at <= UTC_TIMESTAMP(3), VALUES(owner), owner),
  expires_at = IF(owner = VALUES(owner), VALUES(expires_at), expires_at)
