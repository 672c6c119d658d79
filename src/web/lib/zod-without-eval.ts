import { config } from "zod";

/**
 * The answers' schemas parse in the browser too (the practice set's chunk). zod compiles object
 * schemas with `new Function` unless told not to, and tries it when a schema is built: the app's
 * Content-Security-Policy forbids eval, so the try is reported as a violation. Interpreted parsing is
 * fast enough for one answer at a time. Import this before any module that builds a schema.
 */
config({ jitless: true });
