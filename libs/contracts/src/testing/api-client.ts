/**
 * One HTTP request to the API, its body as the raw text sent (so malformed and poisoned JSON can be
 * sent), or as bytes (so can text that is not UTF-8).
 */
export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

export interface ApiAnswer {
  status: number;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read bodies of many shapes
}

/** An entry point of the API as a test drives it: an instance (injected or over a socket) or the gateway. */
export type SendRequest = (request: ApiRequest) => Promise<ApiAnswer>;

export const JSON_HEADERS = { 'content-type': 'application/json' };

/** The answer's body as JSON when it parses, else as text: an error page must fail the test readably. */
export function parseAnswerBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
