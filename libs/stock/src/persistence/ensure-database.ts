import { createConnection } from 'mysql2/promise';

/**
 * The lab's own MariaDB account, the default of the service, the tests and the bench:
 * infra/scripts/ensure-services.sh creates it with rights on the `oversell_%` databases only, so root
 * need not be reachable over TCP. A local, loopback-only default; set MYSQL_USER/MYSQL_PASSWORD elsewhere.
 */
export const LAB_MYSQL_USER = 'oversell';
export const LAB_MYSQL_PASSWORD = 'oversell-lab';

export interface MysqlConnectionSettings {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

/** The service creates its own database on first start, so a fresh MySQL needs no manual step. */
export async function ensureDatabase(settings: MysqlConnectionSettings): Promise<void> {
  if (!/^[A-Za-z0-9_]+$/.test(settings.database)) {
    throw new Error(`MYSQL_DATABASE "${settings.database}" may only contain letters, digits and _`);
  }
  const connection = await createConnection({
    host: settings.host,
    port: settings.port,
    user: settings.user,
    password: settings.password,
  }).catch((error: Error & { code?: string }) => {
    if (error.code !== 'ER_ACCESS_DENIED_ERROR' && error.code !== 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR') throw error;
    throw new Error(`${error.message}: run infra/scripts/ensure-services.sh, which creates the lab's MySQL user, or set MYSQL_USER and MYSQL_PASSWORD`, { cause: error });
  });
  try {
    await connection.query(`CREATE DATABASE IF NOT EXISTS \`${settings.database}\` CHARACTER SET utf8mb4`);
  } finally {
    await connection.end();
  }
}
