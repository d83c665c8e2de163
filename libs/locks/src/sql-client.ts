/**
 * What a MySQL lock needs of its client: one statement with `?` parameters in, its result out (the rows
 * of a SELECT, `{ affectedRows }` of any other statement). TypeORM's DataSource and EntityManager answer
 * that way as they are. A mysql2 pool answers `[result, fields]`, so hand it in as
 * `{ query: (sql, params) => pool.query(sql, params).then(([result]) => result) }`.
 */
export interface SqlClient {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** Rows the statement changed (or, with mysql2's default CLIENT_FOUND_ROWS, matched). */
export async function affectedRows(client: SqlClient, sql: string, params: unknown[]): Promise<number> {
  return ((await client.query(sql, params)) as { affectedRows: number }).affectedRows;
}

/** Rows a SELECT found. */
export async function rowsFound(client: SqlClient, sql: string, params: unknown[]): Promise<number> {
  return ((await client.query(sql, params)) as unknown[]).length;
}

const ER_LOCK_DEADLOCK = 1213;

/** InnoDB broke a deadlock by rolling this statement back: it took effect nowhere, and may be tried again. */
export function isDeadlock(error: unknown): boolean {
  const driverError = (error as { driverError?: unknown } | null)?.driverError ?? error;
  return (driverError as { errno?: number } | null)?.errno === ER_LOCK_DEADLOCK;
}
