import { useMutation } from "@tanstack/react-query";
import type { SendReportRequest, SendReportResponse } from "../../../lib/domain";
import { accountRequest } from "../../../lib/session";

/**
 * `POST /api/reports/{id}/send`: a report of the team mailed to a client. Answers the message to
 * show; throws the server's message otherwise (mail not configured, the hourly allowance, a field).
 */
export const sendReport = (id: string, body: SendReportRequest) =>
  accountRequest<SendReportResponse>("POST", `/api/reports/${encodeURIComponent(id)}/send`, body);

export const useSendReport = (id: string) => useMutation({ mutationFn: (body: SendReportRequest) => sendReport(id, body) });
