import { ApiError, csrfHeaders } from "../../lib/api-client";

/** Reads the error text of an admin API answer (`{success: false, error}`), or the status. */
async function failure(res: Response): Promise<ApiError> {
  const json = (await res.json().catch(() => ({}))) as { error?: string };
  return new ApiError(res.status, json.error ?? `${res.status}: ${res.statusText}`);
}

/** GET an admin API document; throws an `ApiError` carrying the status (401, 403, ...). */
export async function adminGet<T>(path: string): Promise<T> {
  const res = await fetch(path, { credentials: "include" });
  if (!res.ok) throw await failure(res);
  return (await res.json()) as T;
}

/** A change through the admin API (with the session's CSRF token); throws an `ApiError` with the server's message. */
export async function adminSend<T>(method: "POST" | "PUT" | "PATCH" | "DELETE", path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: "include",
    headers: { ...csrfHeaders(), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw await failure(res);
  return (await res.json()) as T;
}

/** "28 Nov 2026, 14:05" in the reader's time zone. */
export const adminDateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
