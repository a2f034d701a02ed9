import { queryOptions, useQuery } from "@tanstack/react-query";
import type { BrandingInput, FieldError, FieldErrorsResponse, WhiteLabelSettings } from "../../../lib/domain";
import { csrfHeaders } from "../../../lib/api-client";

/** A refused request: its message, and for a refused form every failing field (a 422's `fields`). */
export class WhiteLabelError extends Error {
  readonly status: number;
  readonly fields: FieldError[];
  constructor(status: number, message: string, fields: FieldError[] = []) {
    super(message);
    this.name = "WhiteLabelError";
    this.status = status;
    this.fields = fields;
  }
}

/** Sends a request with the session's CSRF token and reads the settings back, or throws a `WhiteLabelError`. */
async function send(method: string, path: string, body?: { type: string; data: BodyInit }): Promise<WhiteLabelSettings> {
  const headers: Record<string, string> = { ...(method === "GET" ? {} : csrfHeaders()) };
  if (body) headers["Content-Type"] = body.type;
  const res = await fetch(path, { method, headers, body: body?.data, credentials: "include" });
  const json = (await res.json().catch(() => ({}))) as Partial<FieldErrorsResponse> & WhiteLabelSettings;
  if (!res.ok) throw new WhiteLabelError(res.status, json.error ?? `${res.status}: ${res.statusText}`, json.fields ?? []);
  return json;
}

/** `GET /api/white-label`: whether the signed-in user may brand, and their saved brand. */
export const getWhiteLabel = () => send("GET", "/api/white-label");

/** `PUT /api/white-label`: saves the settings (not the logo); a 422 names every failing field. */
export const saveBranding = (input: BrandingInput) =>
  send("PUT", "/api/white-label", { type: "application/json", data: JSON.stringify(input) });

/** `PUT /api/white-label/logo`: the file itself as the body, typed as the browser typed it. */
export const uploadLogo = (file: File) => send("PUT", "/api/white-label/logo", { type: file.type, data: file });

/** `DELETE /api/white-label/logo`: no logo from now on. */
export const removeLogo = () => send("DELETE", "/api/white-label/logo");

export const whiteLabelQueryOptions = () =>
  queryOptions({ queryKey: ["white-label"], queryFn: getWhiteLabel, retry: false });

export const useWhiteLabel = (enabled: boolean) => useQuery({ ...whiteLabelQueryOptions(), enabled });
