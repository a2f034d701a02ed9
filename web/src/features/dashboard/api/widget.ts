import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { WidgetKeyView, WidgetLeadPage, WidgetOrigins, WidgetOverview } from "../../../lib/domain";
import { accountRequest } from "../../../lib/session";

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { credentials: "include" });
  if (!res.ok) throw new Error(`${res.status}: ${res.statusText}`);
  return (await res.json()) as T;
}

/** `GET /api/account/widget`: whether the plan includes the widget, and the unrevoked keys. */
export const getWidgetOverview = () => getJson<WidgetOverview>("/api/account/widget");

/** `GET /api/account/widget/leads`: one page of the widget's leads, newest first. */
export const getWidgetLeads = (page: number) => getJson<WidgetLeadPage>(`/api/account/widget/leads?page=${page}`);

/** `POST /api/account/widget/keys`: a new key for these origins (white-label accounts only). */
export const createWidgetKey = (body: WidgetOrigins) => accountRequest<WidgetKeyView>("POST", "/api/account/widget/keys", body);

/** `PUT /api/account/widget/keys/{id}`: the key's new origins. */
export const updateWidgetOrigins = ({ id, ...body }: WidgetOrigins & { id: number }) =>
  accountRequest<WidgetKeyView>("PUT", `/api/account/widget/keys/${id}`, body);

/** `DELETE /api/account/widget/keys/{id}`: pages using the key stop showing the form. */
export const revokeWidgetKey = (id: number) => accountRequest<{ message: string }>("DELETE", `/api/account/widget/keys/${id}`);

/** Where the leads export downloads from. */
export const LEADS_CSV = "/api/account/widget/leads.csv";

export const widgetQueryOptions = () => queryOptions({ queryKey: ["widget"], queryFn: getWidgetOverview });

export const useWidget = () => useQuery(widgetQueryOptions());

export const useWidgetLeads = (page: number, enabled: boolean) =>
  useQuery({ queryKey: ["widget", "leads", page], queryFn: () => getWidgetLeads(page), enabled, placeholderData: keepPreviousData });

/** Creating, re-scoping or revoking a key refreshes the widget's queries. */
function useWidgetChange<A, R>(send: (arg: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => void qc.invalidateQueries({ queryKey: widgetQueryOptions().queryKey }),
  });
}

export const useCreateWidgetKey = () => useWidgetChange(createWidgetKey);

export const useUpdateWidgetOrigins = () => useWidgetChange(updateWidgetOrigins);

export const useRevokeWidgetKey = () => useWidgetChange(revokeWidgetKey);
