import { resolve } from 'node:path';

/** Where the built pieces the lab starts live, from this package's dist/lab/ (or src/lab/ under ts-jest). */
export const REPO_ROOT = resolve(__dirname, '..', '..', '..', '..');
export const ORDER_SERVICE_MAIN = resolve(REPO_ROOT, 'apps', 'order-service', 'dist', 'main.js');
/** The launcher's own build, whose rooms (lab/, commands/, reports/) keep their folders under it. */
export const LAUNCHER_DIST = resolve(REPO_ROOT, 'apps', 'launcher', 'dist');
export const DASHBOARD_DIST = resolve(REPO_ROOT, 'apps', 'dashboard', 'dist');
export const ENSURE_SERVICES_SCRIPT = resolve(REPO_ROOT, 'infra', 'scripts', 'ensure-services.sh');
export const BENCH_RESULTS_DIR = resolve(REPO_ROOT, 'bench-results');
/** docker-compose's nginx configuration, which the lab renders for its own ports (edge.ts). */
export const NGINX_TEMPLATE = resolve(REPO_ROOT, 'infra', 'nginx', 'default.conf.template');
export const ENSURE_NGINX_SCRIPT = resolve(REPO_ROOT, 'infra', 'scripts', 'ensure-nginx.sh');
