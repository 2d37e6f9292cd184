import { HttpError } from 'ra-core';

export interface HttpRequest {
  method: string;
  body?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  json: unknown;
}

/** The one seam between the dataProvider and the network; tests pass a fake. */
export type HttpClient = (url: string, request: HttpRequest) => Promise<HttpResponse>;

/** Body of every API error: `{statusCode, error, message, errors?}`. */
export interface ApiErrorBody {
  statusCode?: number;
  message?: string;
  errors?: Record<string, string>;
  [key: string]: unknown;
}

/**
 * fetch with the bearer token; a status of 400 or more rejects with ra-core's HttpError whose
 * body keeps `errors`, so react-admin forms show each message on its field.
 */
export function fetchHttpClient(
  getToken: () => string | null,
  fetchImpl: typeof fetch = fetch,
): HttpClient {
  return async (url, request) => {
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (request.body !== undefined) headers['content-type'] ??= 'application/json';
    const token = getToken();
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetchImpl(url, {
      method: request.method,
      body: request.body,
      headers,
      signal: request.signal,
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = { message: text };
    }
    if (response.status >= 400) {
      const body = (json ?? {}) as ApiErrorBody;
      throw new HttpError(
        body.message || response.statusText || `HTTP ${response.status}`,
        response.status,
        {
          ...body,
          ...(body.errors ? { errors: body.errors } : {}),
        },
      );
    }
    return { status: response.status, json };
  };
}
