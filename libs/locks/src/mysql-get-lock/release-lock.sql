-- 1: this session held the name and let it go; 0: another session holds it; NULL: no session does.
SELECT RELEASE_LOCK(?) AS released
