import type {
  ChoosingALock,
  CourseState,
  CourseStateUpdate,
  ErrorBody,
  InventoryView,
  Localized,
  RunBatchRequest,
  RunBatchView,
  RunParams,
  RunView,
  Scenario,
  StrategyDescription,
} from '@oversell/contracts';
import { supportedLocale } from '../i18n/i18n';

/** Relative, so the dashboard works behind whatever origin serves it (the service, the dev proxy). */
export const API_BASE = 'api';

/** The order service answered with an error body of its own (a 4xx, or a 5xx it reported). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;

  constructor(body: ErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.status = body.statusCode;
    this.body = body;
  }

  /**
   * The message for one request field, e.g. 'initialStock' or 'load.connections': its first problem only,
   * since a field's problems can read as contradicting one another (an empty number is "not a whole
   * number", "below the minimum" and "above the maximum" at once).
   */
  messageFor(field: string): string | undefined {
    const detail = this.body.details?.find((d) => d.field === field);
    if (detail) return detail.problems[0];
    return this.body.field === field ? this.body.message : undefined;
  }
}

/**
 * Nothing that speaks the API answered: the network failed, a proxy answered for a service that is down,
 * or something other than the API served the URL. The UI shows one "cannot reach the order service" state
 * for all of these, because the fix is the same: start the service.
 */
export type UnreachableReason = 'network' | 'noApiBody' | 'notJson';

export class ServiceUnreachableError extends Error {
  /** What was seen instead of an API answer (the UI says it in words: errors.reason.*). */
  readonly reason: UnreachableReason;
  /** The HTTP status of an answer without an API error body. */
  readonly status?: number;

  constructor(reason: UnreachableReason, status?: number) {
    super(`Cannot reach the order service (${reason}${status ? ` ${status}` : ''}).`);
    this.name = 'ServiceUnreachableError';
    this.reason = reason;
    this.status = status;
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Partial<ErrorBody>;
  return typeof body.statusCode === 'number' && typeof body.error === 'string' && typeof body.message === 'string';
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The page's language: the client runs outside React, so it reads `lang` on the document, which the
 * i18n instance keeps in step with the switch.
 */
const pageLocale = () => supportedLocale(document.documentElement.lang);

async function request<T>(path: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/${path}`, {
      ...init,
      // The service writes its error messages in the language asked for (the codes stay the same).
      headers: { Accept: 'application/json', 'Accept-Language': pageLocale(), ...(init?.body ? { 'Content-Type': 'application/json' } : {}), ...init?.headers },
    });
  } catch {
    throw new ServiceUnreachableError('network');
  }
  // No Content: the resource has nothing to show yet (a path that can answer it says so with `| null` in T).
  if (response.status === 204) return null as T;
  const body = await readJson(response);
  if (!response.ok) {
    if (isErrorBody(body)) throw new ApiError(body);
    throw new ServiceUnreachableError('noApiBody', response.status);
  }
  // A page (e.g. an SPA fallback) where JSON should be means /api is not routed to the service.
  if (body === undefined) throw new ServiceUnreachableError('notJson');
  return body as T;
}

/** The token prompt, in the page's language. */
const TOKEN_PROMPT: Record<'missing' | 'refused', Localized> = {
  missing: {
    en: 'This lab is reachable from the network: enter its admin token (ADMIN_TOKEN) to start runs.',
    'zh-CN': '这个实验室可从网络访问：请输入它的管理令牌（ADMIN_TOKEN）才能开始运行。',
  },
  refused: { en: 'The admin token was refused: enter the lab’s ADMIN_TOKEN.', 'zh-CN': '管理令牌被拒绝：请输入该实验室的 ADMIN_TOKEN。' },
};

/** Where the lab's admin token is kept: for this tab's session only, never on disk across sessions. */
export const ADMIN_TOKEN_KEY = 'oversell-lab.admin-token';

/**
 * An admin action (queuing runs, moving the course on). A lab reachable from the network answers 401 without its
 * ADMIN_TOKEN (403 for a wrong one): the operator is asked for it once, it is kept for the session and
 * sent on every admin call after. Cancelling the prompt leaves the API's error to show.
 */
async function adminSend<T>(method: 'POST' | 'PUT', path: string, payload: unknown): Promise<T> {
  for (let asked = false; ; asked = true) {
    const token = sessionStorage.getItem(ADMIN_TOKEN_KEY);
    try {
      return await request<T>(path, { method, body: JSON.stringify(payload), headers: token ? { Authorization: `Bearer ${token}` } : {} });
    } catch (error) {
      if (asked || !(error instanceof ApiError) || (error.status !== 401 && error.status !== 403)) throw error;
      const entered = window.prompt(TOKEN_PROMPT[error.status === 401 ? 'missing' : 'refused'][pageLocale()]);
      if (!entered?.trim()) throw error;
      sessionStorage.setItem(ADMIN_TOKEN_KEY, entered.trim());
    }
  }
}

export const api = {
  strategies: () => request<StrategyDescription[]>('strategies'),
  /** "Which lock to choose" with this lab's own latest figures; null while it has measured none (204). */
  labChoosingALock: () => request<ChoosingALock | null>('lab-figures/choosing-a-lock'),
  scenarios: () => request<Scenario[]>('scenarios'),
  runs: (limit: number) => request<RunView[]>(`runs?limit=${limit}`),
  run: (id: string) => request<RunView>(`runs/${encodeURIComponent(id)}`),
  /** The product's stock and orders as the stores hold them now, reconciled against the run it was last reset for. */
  inventory: (productId: number) => request<InventoryView>(`products/${productId}/inventory`),
  startRun: (params: RunParams) => adminSend<RunView>('POST', 'runs', params),
  startBatch: (batch: RunBatchRequest) => adminSend<RunBatchView>('POST', 'runs/batch', batch),
  /** URL of the run's server-sent event stream, for EventSource. */
  runEventsUrl: (id: string) => `${API_BASE}/runs/${encodeURIComponent(id)}/events`,
  /** Where the presenter is in the course; followers see it. */
  course: () => request<CourseState>('course'),
  setCourse: (update: CourseStateUpdate) => adminSend<CourseState>('PUT', 'course', update),
  /** URL of the course's server-sent event stream (`course` events, the current state first). */
  courseEventsUrl: () => `${API_BASE}/course/events`,
};
