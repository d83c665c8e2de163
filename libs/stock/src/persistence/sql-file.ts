// One loader for every .sql file: the lock library's MySQL locks read theirs with it too.
export { loadSqlFile, type SqlFile } from '@oversell/locks';
