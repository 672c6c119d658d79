import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "#web/lib/api";

/** GET /api/admin/contact-messages (Admin only): the contact form's inbox, newest first. */
export interface ContactMessage {
  id: string;
  fullName: string;
  email: string;
  message: string;
  /** ISO 8601. */
  createdAt: string;
  /** The sender's account when they were signed in. */
  userId: string | null;
}

export interface ContactMessagePage {
  messages: ContactMessage[];
  page: number;
  perPage: number;
  total: number;
}

export const CONTACT_MESSAGES_PER_PAGE = 20;

export const contactMessagesQuery = (page: number) =>
  queryOptions({
    queryKey: ["admin", "contact-messages", { page, perPage: CONTACT_MESSAGES_PER_PAGE }],
    queryFn: () =>
      api<ContactMessagePage>(`/api/admin/contact-messages?page=${page}&perPage=${CONTACT_MESSAGES_PER_PAGE}`),
    // Paging keeps the current page on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });

export function useContactMessages(page: number) {
  return useQuery(contactMessagesQuery(page));
}
