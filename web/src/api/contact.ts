import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../lib/api-client";
import type { ContactForm } from "../lib/domain";

/** POST /api/contact: the server stores the message for the team. */
export const sendContactMessage = (m: ContactForm) => apiRequest("POST", "/api/contact", m);

export const useSendContactMessage = () => useMutation({ mutationFn: sendContactMessage });

/** The sales forms' endpoints: POST /api/contact/{kind}; the server stores and mails to sales. */
export type SalesKind = "enterprise" | "agency" | "partner";

export const sendSalesMessage = ({ kind, form }: { kind: SalesKind; form: object }) =>
  apiRequest("POST", `/api/contact/${kind}`, form);

export const useSendSalesMessage = () => useMutation({ mutationFn: sendSalesMessage });
