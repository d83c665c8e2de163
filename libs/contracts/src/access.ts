import type { LocalizedErrorBody } from './errors';

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

/** The host name of a Host header, without its port: `[::1]:8080` → `::1`, `Lab.local:80` → `lab.local`. */
export function hostHeaderName(header: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(header);
  return (bracketed ? bracketed[1] : header.replace(/:\d+$/, '')).toLowerCase();
}

const IPV4 = /^(\d{1,3})(\.\d{1,3}){3}$/;
/** Hex digits and colons (dots for an embedded IPv4): never a DNS name, which has no colon. */
const IPV6 = /^[\da-f:.]*:[\da-f:.]*$/;

/** Bind addresses meaning every interface: no name of the machine's own. */
export const WILDCARD_BINDS: readonly string[] = ['0.0.0.0', '::'];

/** LAB_PUBLIC_HOST's names: comma-separated, spaces around them and IPv6 brackets allowed. */
export function publicHostNames(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((name) => name.trim().replace(/^\[(.*)\]$/, '$1'))
    .filter(Boolean);
}

/**
 * The Host check against DNS rebinding: a page on an attacker's domain that re-points its name at the
 * lab's address reaches the lab as same-origin, but its requests still say Host: attacker.example. So
 * only these pass: loopback names, `names` (the lab's public hosts, its own bind name), and with
 * `anyAddress` any IP literal (a rebinding page's requests carry its domain name, never an address; an
 * instance is reached by address by the run worker and by Prometheus).
 */
export function hostCheck(names: readonly string[], { anyAddress = false }: { anyAddress?: boolean } = {}): (header: string | undefined) => boolean {
  const own = new Set(names.map((name) => name.replace(/^\[(.*)\]$/, '$1').toLowerCase()));
  return (header) => {
    if (header === undefined) return false;
    const name = hostHeaderName(header);
    return isLoopbackHost(name) || own.has(name) || (anyAddress && (IPV4.test(name) || IPV6.test(name)));
  };
}

/** The answer to a request whose Host the lab does not answer for. */
export function misdirectedRequest(header: string | undefined): LocalizedErrorBody {
  const host = JSON.stringify(header ?? '');
  return {
    statusCode: 421,
    error: 'misdirected_request',
    message: {
      en: `this lab does not answer for Host ${host}; use a loopback name or one of its public hosts (LAB_PUBLIC_HOST)`,
      'zh-CN': `本实验室不响应 Host ${host}；请使用回环地址名或它的公开主机名之一（LAB_PUBLIC_HOST）`,
    },
  };
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

/** helmet's options for every answer of the lab, the gateway's and the service's: its CSP; no HSTS (plain http). */
export const LAB_HELMET_OPTIONS = { contentSecurityPolicy: { useDefaults: false, directives: LAB_CSP_DIRECTIVES }, strictTransportSecurity: false } as const;

/** A Connect-style middleware that only sets headers, as helmet's is. */
type HeaderMiddleware = (req: never, res: never, next: () => void) => void;

/**
 * The headers such a middleware sets, recorded once: helmet's do not depend on the request, so the
 * service and the gateway set them from the record on every answer, in a hook and on the answers
 * Fastify gives before any hook runs (its routing errors, client errors).
 */
export function headersSetBy(middleware: HeaderMiddleware): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = { setHeader: (name: string, value: unknown) => (headers[name.toLowerCase()] = String(value)), removeHeader: () => undefined };
  middleware({} as never, recorder as never, () => undefined);
  return headers;
}
