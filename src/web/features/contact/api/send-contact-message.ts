import { useMutation } from "@tanstack/react-query";
import { api } from "#web/lib/api";

/** POST /api/contact: the server trims and checks every field (400), and limits each client (429). */
export interface ContactMessageInput {
  fullName: string;
  email: string;
  message: string;
}

export function sendContactMessage(input: ContactMessageInput) {
  return api<{ ok: true }>("/api/contact", { method: "POST", body: input });
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
