import { resolve } from 'node:path';

/** Where the built pieces the lab starts live, from this package's dist/ (or src/ under ts-jest). */
export const REPO_ROOT = resolve(__dirname, '..', '..', '..');
export const ORDER_SERVICE_MAIN = resolve(REPO_ROOT, 'apps', 'order-service', 'dist', 'main.js');
/** Prints the lock services the named strategies need (see apps/order-service/src/lock-services-needed.ts). */
export const LOCK_SERVICES_NEEDED_MAIN = resolve(REPO_ROOT, 'apps', 'order-service', 'dist', 'lock-services-needed.js');
export const DASHBOARD_DIST = resolve(REPO_ROOT, 'apps', 'dashboard', 'dist');
export const ENSURE_SERVICES_SCRIPT = resolve(REPO_ROOT, 'infra', 'scripts', 'ensure-services.sh');
export const BENCH_RESULTS_DIR = resolve(REPO_ROOT, 'bench-results');
/** Prints every strategy's description as JSON (see apps/order-service/src/strategy-descriptions.ts). */
export const STRATEGY_DESCRIPTIONS_MAIN = resolve(REPO_ROOT, 'apps', 'order-service', 'dist', 'strategy-descriptions.js');
