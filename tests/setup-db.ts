import { randomBytes } from "node:crypto";
import { afterAll, inject } from "vitest";
import { adminQuery, withDatabase } from "./db-global-setup";

/** Each test file gets its own copy of the migrated template database. */
const templateUrl = inject("templateDatabaseUrl");
const templateName = new URL(templateUrl).pathname.slice(1);
const databaseName = `jalan_test_${randomBytes(6).toString("hex")}`;
await adminQuery(templateUrl, `create database "${databaseName}" template "${templateName}"`);
// The copy is dropped after its file, and nothing here outlives a crash of the server: a commit need
// not wait for the disk. What each transaction sees is the same; only the flush comes later.
await adminQuery(templateUrl, `alter database "${databaseName}" set synchronous_commit = off`);
process.env.TEST_DATABASE_URL = withDatabase(templateUrl, databaseName);

afterAll(async () => {
  await adminQuery(templateUrl, `drop database if exists "${databaseName}" with (force)`);
});
