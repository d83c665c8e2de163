import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../i18n/i18n';
import { ADMIN_TOKEN_KEY, api, ApiError, ServiceUnreachableError } from './client';

function answer(status: number, body: string) {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(body, { status })));
}

describe('api client', () => {
  it('sends JSON to a relative URL and returns the parsed answer', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ id: 'r1', status: 'queued' }), { status: 201 }));
    vi.stubGlobal('fetch', fetch);
    await expect(api.startRun({ strategy: 'no-lock', initialStock: 5, load: { connections: 1 } })).resolves.toMatchObject({
      id: 'r1',
    });
    expect(fetch).toHaveBeenCalledWith('api/runs', expect.objectContaining({ method: 'POST' }));
  });

  it("asks the service for the page's language (Accept-Language), which follows the language switch", async () => {
    const i18n = createI18n({ language: 'zh-CN' });
    const fetch = vi.fn(async () => new Response('[]', { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    await api.runs(1);
    await i18n.changeLanguage('en');
    await api.runs(1);
    const languages = fetch.mock.calls.map((call) => ((call as unknown as [string, RequestInit])[1].headers as Record<string, string>)['Accept-Language']);
    expect(languages).toEqual(['zh-CN', 'en']);
  });

  it('turns an error body into an ApiError that knows which field it is about', async () => {
    answer(
      400,
      JSON.stringify({
        statusCode: 400,
        error: 'validation_failed',
        message: 'initialStock must be at most 1000000',
        field: 'initialStock',
        details: [{ field: 'load.connections', problems: ['must be at least 1', 'must be an integer'] }],
      }),
    );
    const error = await api.runs(50).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(400);
    expect(apiError.body.error).toBe('validation_failed');
    expect(apiError.messageFor('initialStock')).toBe('initialStock must be at most 1000000');
    expect(apiError.messageFor('load.connections')).toBe('must be at least 1');
    expect(apiError.messageFor('segments')).toBeUndefined();
  });

  it('reports an unreachable service for a network failure, a bare proxy error or a non-JSON page', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(api.strategies()).rejects.toBeInstanceOf(ServiceUnreachableError);

    answer(502, 'Bad Gateway');
    await expect(api.strategies()).rejects.toMatchObject({ reason: 'noApiBody', status: 502 });

    answer(200, '<!doctype html><html></html>');
    await expect(api.strategies()).rejects.toMatchObject({ reason: 'notJson' });
  });

  describe('admin token', () => {
    const RUN = { strategy: 'no-lock', initialStock: 5, load: { connections: 1 } } as const;
    const UNAUTHORIZED = JSON.stringify({ statusCode: 401, error: 'unauthorized', message: 'send Authorization: Bearer <ADMIN_TOKEN>' });
    const FORBIDDEN = JSON.stringify({ statusCode: 403, error: 'forbidden', message: 'not the lab’s ADMIN_TOKEN' });
    const QUEUED = JSON.stringify({ id: 'r1', status: 'queued' });
    const authorization = (call: unknown[]) => new Headers((call[1] as RequestInit).headers).get('authorization');

    beforeEach(() => sessionStorage.clear());

    /** A server that wants `Bearer good-token` and answers 401 without a token, 403 with another. */
    function guardedServer() {
      const fetch = vi.fn(async (_url: string, init?: RequestInit) => {
        const sent = new Headers(init?.headers).get('authorization');
        if (!sent) return new Response(UNAUTHORIZED, { status: 401 });
        return sent === 'Bearer good-token' ? new Response(QUEUED, { status: 201 }) : new Response(FORBIDDEN, { status: 403 });
      });
      vi.stubGlobal('fetch', fetch);
      return fetch;
    }

    it('sends no token to a lab that asks for none, and asks for nothing', async () => {
      const fetch = vi.fn(async () => new Response(QUEUED, { status: 201 }));
      vi.stubGlobal('fetch', fetch);
      const prompt = vi.spyOn(window, 'prompt');
      await expect(api.startRun(RUN)).resolves.toMatchObject({ id: 'r1' });
      expect(authorization(fetch.mock.calls[0] as unknown[])).toBeNull();
      expect(prompt).not.toHaveBeenCalled();
    });

    it('asks once on a 401, keeps the token for the session and sends it on later admin calls', async () => {
      const fetch = guardedServer();
      const prompt = vi.spyOn(window, 'prompt').mockReturnValue(' good-token ');
      await expect(api.startRun(RUN)).resolves.toMatchObject({ id: 'r1' });
      await expect(api.startBatch({ initialStock: 5, load: { connections: 1 } })).resolves.toMatchObject({ id: 'r1' });
      expect(prompt).toHaveBeenCalledTimes(1);
      expect(sessionStorage.getItem(ADMIN_TOKEN_KEY)).toBe('good-token');
      expect(fetch.mock.calls.map((call) => authorization(call as unknown[]))).toEqual([null, 'Bearer good-token', 'Bearer good-token']);
    });

    it('asks again once when the kept token is refused (403), and gives the error up after that', async () => {
      guardedServer();
      sessionStorage.setItem(ADMIN_TOKEN_KEY, 'stale-token');
      const prompt = vi.spyOn(window, 'prompt').mockReturnValueOnce('good-token');
      await expect(api.startRun(RUN)).resolves.toMatchObject({ id: 'r1' });
      prompt.mockReturnValue('still-wrong');
      sessionStorage.setItem(ADMIN_TOKEN_KEY, 'stale-token');
      await expect(api.startRun(RUN)).rejects.toMatchObject({ status: 403 });
      expect(prompt).toHaveBeenCalledTimes(2);
    });

    it('leaves the 401 to show when the prompt is cancelled', async () => {
      guardedServer();
      vi.spyOn(window, 'prompt').mockReturnValue(null);
      await expect(api.startRun(RUN)).rejects.toBeInstanceOf(ApiError);
      expect(sessionStorage.getItem(ADMIN_TOKEN_KEY)).toBeNull();
    });
  });
});
