/** An HTTP failure with its status, so callers (and the query retry rule) can tell 4xx from 5xx. */
export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }
}

/** The CSRF token of the signed-in session (set by lib/session.ts), sent with every state-changing request. */
let csrfToken: string | null = null;
export function setCsrfToken(token: string | null) {
  csrfToken = token;
}
/** The X-CSRF-Token header for a state-changing request, when signed in. */
export function csrfHeaders(): Record<string, string> {
  return csrfToken ? { "X-CSRF-Token": csrfToken } : {};
}

/** Adds the leading slash a path may lack (docs/PRODUCT.md §7.1). */
export function withLeadingSlash(path: string) {
  return path.startsWith("/") ? path : `/${path}`;
}

async function readBody(res: Response): Promise<string> {
  try {
    return await res.text();
  } catch {
    return "";
  }
}

/**
 * Throws the spec's generic request failure (docs/PRODUCT.md §8.1): "status: body text" (or status text).
 * A 500 is read as JSON or text, logged and rethrown as "500: details", falling back to
 * "Internal Server Error".
 */
export async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await readBody(res);
  if (res.status === 500) {
    let details = text;
    try {
      const json = JSON.parse(text) as { error?: string; message?: string };
      details = json.error ?? json.message ?? text;
    } catch {
      // Not JSON: keep the text.
    }
    details = details || "Internal Server Error";
    console.error("Server error:", details);
    throw new ApiError(500, `500: ${details}`);
  }
  throw new ApiError(res.status, `${res.status}: ${text || res.statusText}`);
}

/** A JSON content type only with a body, the CSRF token only on a state-changing request; none at all when neither. */
function requestHeaders(method: string, hasBody: boolean, extra?: Record<string, string>): Record<string, string> | undefined {
  const headers = {
    ...(method === "GET" || method === "HEAD" ? {} : csrfHeaders()),
    ...(hasBody ? { "Content-Type": "application/json" } : {}),
    ...extra,
  };
  return Object.keys(headers).length > 0 ? headers : undefined;
}

/**
 * The general request helper of docs/PRODUCT.md §7.1: method, path and optional JSON body; a missing
 * leading slash is added; credentials are included; a JSON content type only with a body.
 */
export async function apiRequest(method: string, path: string, body?: unknown, init?: RequestInit): Promise<Response> {
  const res = await fetch(withLeadingSlash(path), {
    ...init,
    method,
    headers: requestHeaders(method, body !== undefined, init?.headers as Record<string, string> | undefined),
    body: body !== undefined ? JSON.stringify(body) : undefined,
    credentials: "include",
  });
  await throwIfNotOk(res);
  return res;
}

/** GET a JSON document through the request helper. */
export async function getJson<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await apiRequest("GET", path, undefined, init);
  return (await res.json()) as T;
}

/** Whether an error is a client error (4xx), which is never retried. */
export function isClientError(error: unknown) {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}
