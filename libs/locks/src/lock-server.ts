import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

// The same depth from src/ and from dist/.
const SCRIPTS = resolve(__dirname, '../../../infra/scripts');

/**
 * Starts a lock server of the project's with infra/scripts/ensure-<server>.sh, which installs its Debian
 * package the first time and stops the server once this process has exited, however it ends. Sets
 * `variable` to the one line the script prints, so processes started after it find the same server;
 * with `variable` already set, the script only checks that server answers. Returns the value.
 */
export function startLockServer(server: string, variable: string): string {
  const value = execFileSync('bash', [resolve(SCRIPTS, `ensure-${server}.sh`), 'start', '--owner', String(process.pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  process.env[variable] = value;
  return value;
}
