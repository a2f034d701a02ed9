import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "../../../lib/api-client";
import type { CustomDomainSettings } from "../../../lib/domain";
import { accountRequest } from "../../../lib/session";

/** Where the agency's custom domain lives (issue 15 item 3; `routes/custom_domains.rs`). */
const DOMAIN = "/api/white-label/domain";

/**
 * `GET /api/white-label/domain`: the domain, whether it is verified, the records to add and the
 * steps. A 403 (a plan without white-label, or a team member) is an `ApiError` with the server's
 * reason, which the section shows instead of the form.
 */
export async function getCustomDomain(): Promise<CustomDomainSettings> {
  const res = await fetch(DOMAIN, { credentials: "include" });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { error?: string };
    throw new ApiError(res.status, body.error ?? `${res.status}: ${res.statusText}`);
  }
  return (await res.json()) as CustomDomainSettings;
}

/** `PUT`: sets the domain (the server normalises it; 422 and 409 come back as their messages). */
export const setCustomDomain = (domain: string) => accountRequest<CustomDomainSettings>("PUT", DOMAIN, { domain });
/** `POST …/verify`: looks the TXT record up now; a failed check is an answer with `lastError`. */
export const verifyCustomDomain = () => accountRequest<CustomDomainSettings>("POST", `${DOMAIN}/verify`);
/** `DELETE`: removes the domain; it stops serving at once. */
export const removeCustomDomain = () => accountRequest<CustomDomainSettings>("DELETE", DOMAIN);

export const customDomainQueryOptions = () => queryOptions({ queryKey: ["custom-domain"], queryFn: getCustomDomain, retry: false });

export const useCustomDomain = () => useQuery(customDomainQueryOptions());

/** Each change answers the new settings, which replace the cached ones. */
function useChange<A>(fn: (arg: A) => Promise<CustomDomainSettings>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: (settings) => qc.setQueryData(customDomainQueryOptions().queryKey, settings) });
}

export const useSetCustomDomain = () => useChange(setCustomDomain);
export const useVerifyCustomDomain = () => useChange<void>(() => verifyCustomDomain());
export const useRemoveCustomDomain = () => useChange<void>(() => removeCustomDomain());
