import { createConnection } from 'mysql2/promise';

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
  });
  try {
    await connection.query(`CREATE DATABASE IF NOT EXISTS \`${settings.database}\` CHARACTER SET utf8mb4`);
  } finally {
    await connection.end();
  }
}
