import { z } from "zod";

/**
 * The query of a paged list (staff's user list, the Admin's contact inbox), shared by the server,
 * which parses it, and the web app, whose typed client sends it.
 */

export const MAX_PER_PAGE = 100;

export const wholeNumber = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number from ${min} to ${max}.` })
    .int(`${name} must be a whole number from ${min} to ${max}.`)
    .min(min, `${name} must be at least ${min}.`)
    .max(max, `${name} must be at most ${max}.`);

/** `?page=&perPage=` of a paged list: page from 1, at most MAX_PER_PAGE a page, 20 by default. */
export const pageQuerySchema = z.object({
  page: wholeNumber("page", 1, 1_000_000).default(1),
  perPage: wholeNumber("perPage", 1, MAX_PER_PAGE).default(20),
});
