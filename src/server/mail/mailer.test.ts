import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { createMailer, outboxFile, singleLine } from "./mailer";

describe("singleLine", () => {
  it("removes CR and LF so a value cannot start a new mail header", () => {
    expect(singleLine("Hi\r\nBcc: victim@example.com")).toBe("Hi Bcc: victim@example.com");
  });
});

describe("local outbox", () => {
  it("writes each message as one JSON line under DATA_DIR", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "jalan-mail-"));
    const mailer = createMailer({ from: "Jalan <a@b.c>", dataDir, logger: pino({ level: "silent" }) });
    await mailer.send({ to: "x@example.com\n", subject: "Hello", text: "Body", link: "http://l/ink" });
    const [line] = readFileSync(outboxFile(dataDir), "utf8").trim().split("\n");
    expect(JSON.parse(line!)).toMatchObject({
      to: "x@example.com",
      subject: "Hello",
      text: "Body",
      link: "http://l/ink",
    });
  });
});

describe("outbox log line", () => {
  it("carries the link only when links may be logged", async () => {
    for (const logLinks of [true, false]) {
      const lines: string[] = [];
      const logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
      const dataDir = mkdtempSync(path.join(os.tmpdir(), "jalan-mail-"));
      const mailer = createMailer({ from: "Jalan <a@b.c>", dataDir, logger, logLinks });
      await mailer.send({
        to: "x@example.com",
        subject: "Reset",
        text: "t",
        link: "http://l/reset?token=secret-token",
      });
      expect(lines.join("").includes("secret-token")).toBe(logLinks);
    }
  });
});
