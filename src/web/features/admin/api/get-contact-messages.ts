import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { apiClient, call } from "#web/lib/api";
import { contactMessagesQueryKey } from "#web/lib/query-keys";

/** A message sent through the contact form, as the inbox lists it (Admin only), newest first. */
export type ContactMessage = InferResponseType<
  (typeof apiClient.admin)["contact-messages"]["$get"],
  200
>["messages"][number];

export const CONTACT_MESSAGES_PER_PAGE = 20;

export const contactMessagesQuery = (page: number) =>
  queryOptions({
    queryKey: contactMessagesQueryKey({ page, perPage: CONTACT_MESSAGES_PER_PAGE }),
    queryFn: () =>
      call(
        apiClient.admin["contact-messages"].$get({
          query: { page: String(page), perPage: String(CONTACT_MESSAGES_PER_PAGE) },
        }),
      ),
    // Paging keeps the current page on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });

export function useContactMessages(page: number) {
  return useQuery(contactMessagesQuery(page));
}
