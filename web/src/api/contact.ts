import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../lib/api-client";

export type ContactMessage = { name: string; email: string; subject: string; message: string };

/** POST /api/contact: the server stores the message for the team. */
export const sendContactMessage = (m: ContactMessage) => apiRequest("POST", "/api/contact", m);

export const useSendContactMessage = () => useMutation({ mutationFn: sendContactMessage });
