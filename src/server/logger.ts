import pino, { type Logger } from "pino";

/**
 * Structured JSON logs. Anything that could carry a secret (cookies, authorization headers,
 * passwords, tokens) is redacted wherever it appears in a log object.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "jalan" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          "password",
          "*.password",
          "currentPassword",
          "newPassword",
          "token",
          "*.token",
          "headers.cookie",
          "headers.authorization",
          'headers["set-cookie"]',
        ],
        censor: "[redacted]",
      },
    },
    destination,
  );
}

export type { Logger };
