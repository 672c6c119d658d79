import { useMutation } from "@tanstack/react-query";
import type { InferRequestType } from "hono/client";
import { apiClient, call } from "#web/lib/api";

/** What the form sends: the server trims and checks every field (400), and limits each client (429). */
export type ContactMessageInput = InferRequestType<typeof apiClient.contact.$post>["json"];

export function sendContactMessage(input: ContactMessageInput) {
  return call(apiClient.contact.$post({ json: input }));
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
