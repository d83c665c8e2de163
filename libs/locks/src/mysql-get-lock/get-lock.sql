-- 1: this session holds the name now; 0: the wait ran out while another session held it; NULL: the
-- wait was cut short (the statement or the session killed). The wait is in seconds: MariaDB (10.1.2+)
-- keeps its fraction, to the microsecond; MySQL rounds it to whole seconds.
SELECT GET_LOCK(?, ?) AS granted
