import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A SQL statement kept in its own file beside the code that runs it; read at start-up like the Lua scripts. */
export interface SqlFile {
  fileName: string;
  sql: string;
}

export function loadSqlFile(dir: string, fileName: string): SqlFile {
  const path = join(dir, fileName);
  try {
    return { fileName, sql: readFileSync(path, 'utf8').trim() };
  } catch (cause) {
    throw new Error(`SQL file ${path} is missing; were the .sql assets copied into the build?`, { cause });
  }
}
