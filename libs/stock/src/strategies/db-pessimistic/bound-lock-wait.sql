SET SESSION innodb_lock_wait_timeout = ?
