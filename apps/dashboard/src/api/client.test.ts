import { describe, expect, it, vi } from 'vitest';
import { api, ApiError, ServiceUnreachableError } from './client';

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
    expect(apiError.messageFor('load.connections')).toBe('must be at least 1; must be an integer');
    expect(apiError.messageFor('segments')).toBeUndefined();
  });

  it('reports an unreachable service for a network failure, a bare proxy error or a non-JSON page', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(api.strategies()).rejects.toBeInstanceOf(ServiceUnreachableError);

    answer(502, 'Bad Gateway');
    await expect(api.strategies()).rejects.toThrow(/HTTP 502/);

    answer(200, '<!doctype html><html></html>');
    await expect(api.strategies()).rejects.toThrow(/not JSON/);
  });
});
