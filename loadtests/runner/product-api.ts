import type { ErrorBody, InventoryView, ProductRunSettings, ResetProductRequest } from '@oversell/contracts';

/**
 * The two product calls the CLI makes around a run: seed a fresh run, then read what happened. A reset
 * is an admin action: it carries ADMIN_TOKEN when one is given (a lab reachable beyond loopback wants it).
 */
export async function resetProduct(baseUrl: string, productId: number, request: ResetProductRequest, adminToken = process.env.ADMIN_TOKEN): Promise<ProductRunSettings> {
  return callJson<ProductRunSettings>(new URL(`/api/products/${productId}/reset`, baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(adminToken ? { authorization: `Bearer ${adminToken}` } : {}) },
    body: JSON.stringify(request),
  });
}

export async function fetchInventory(baseUrl: string, productId: number): Promise<InventoryView> {
  return callJson<InventoryView>(new URL(`/api/products/${productId}/inventory`, baseUrl), { method: 'GET' });
}

async function callJson<T>(url: URL, init: RequestInit): Promise<T> {
  const response = await fetch(url, init).catch((error: Error & { cause?: { code?: string; message?: string } }) => {
    // fetch only says "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, ...) is in its cause.
    throw new Error(`cannot reach ${url.origin}: ${error.cause?.code ?? error.cause?.message ?? error.message}`);
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method} ${url.pathname} answered ${response.status} ${refusal(text)}`);
  return JSON.parse(text) as T;
}

/** The service's error body in words, naming the field it refused (faults[0].instance, …); anything else as sent. */
function refusal(text: string): string {
  let body: Partial<ErrorBody>;
  try {
    body = JSON.parse(text) as Partial<ErrorBody>;
  } catch {
    return text.slice(0, 300);
  }
  if (typeof body?.message !== 'string') return text.slice(0, 300);
  return `${body.error ?? 'error'}${body.field ? ` on ${body.field}` : ''}: ${body.message}`;
}
