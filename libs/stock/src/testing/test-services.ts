import { LAB_MYSQL_PASSWORD, LAB_MYSQL_USER, type MysqlConnectionSettings } from '../persistence';

/** The real services the integration tests talk to: the local ones by default, overridable like the service's. */
export function testMysqlSettings(): MysqlConnectionSettings {
  return {
    host: process.env.MYSQL_HOST ?? '127.0.0.1',
    port: Number(process.env.MYSQL_PORT ?? 3306),
    user: process.env.MYSQL_USER ?? LAB_MYSQL_USER,
    password: process.env.MYSQL_PASSWORD ?? LAB_MYSQL_PASSWORD,
    database: process.env.MYSQL_TEST_DATABASE ?? 'oversell_lab_test',
  };
}


/** A product id no other test (or earlier run) uses, so tests never share stock. */
export function freshProductId(): number {
  return 100_000 + Math.floor(Math.random() * 2_000_000_000);
}
