import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../lib/api-client";
import type { ContactForm } from "../lib/domain";

/** POST /api/contact: the server stores the message for the team. */
export const sendContactMessage = (m: ContactForm) => apiRequest("POST", "/api/contact", m);

export const useSendContactMessage = () => useMutation({ mutationFn: sendContactMessage });
