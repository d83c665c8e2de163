import type { ErrorBody, RunBatchRequest, RunBatchView, RunParams, RunView } from '@oversell/contracts';

/** The few calls the bench makes to a running lab, over its public HTTP API. */
export class LabClient {
  /** adminToken: the lab's ADMIN_TOKEN, sent on every call (queuing runs is an admin action). */
  constructor(
    private readonly baseUrl: string,
    private readonly adminToken?: string,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.adminToken ? { authorization: `Bearer ${this.adminToken}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as T | ErrorBody;
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${(json as ErrorBody).message}`);
    return json as T;
  }

  queueRun(params: RunParams): Promise<RunView> {
    return this.call('POST', '/api/runs', params);
  }

  queueBatch(request: RunBatchRequest): Promise<RunBatchView> {
    return this.call('POST', '/api/runs/batch', request);
  }

  run(id: string): Promise<RunView> {
    return this.call('GET', `/api/runs/${id}`);
  }
}
