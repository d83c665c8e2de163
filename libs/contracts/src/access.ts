/** The header a load tool sends on every order (or no-op) of a run, so the run's figures count it. */
export const RUN_TOKEN_HEADER = 'x-run-token';

/**
 * A bind address (or Host name) only this machine reaches: 127.0.0.0/8, ::1, localhost. Anything else
 * (0.0.0.0 included) is reachable from the network, where admin actions need a token.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return name === 'localhost' || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name);
}

/**
 * The lab's Content-Security-Policy, set by helmet on the gateway and on the service alike: the
 * dashboard's and the API docs' scripts, styles and connections (fetch, EventSource) from the same
 * origin only; inline style attributes (React, the charts); data: images (the favicon, the docs'
 * icons); no framing. No upgrade-insecure-requests: the lab is served over plain http, on a LAN
 * address too.
 */
export const LAB_CSP_DIRECTIVES: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};
