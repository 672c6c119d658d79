// npm run storage:move [-- --dry-run] [-- --keep-sources]: copies the media kept in PostgreSQL
// (the stored_file table, and DATA_DIR/uploads) into the bucket S3_URL or S3_BUCKET names, checks
// each copy's size, then removes the row or file. Run again after an interruption: what is already
// in the bucket is skipped. README, "Media in an S3-compatible bucket".
import path from "node:path";
import { moveStoredFiles } from "#server/storage/storage-move";
import { createS3Storage } from "#server/storage/storage-s3";
import { runTool } from "./tool-context";

const USAGE = `Usage: npm run storage:move [-- --dry-run] [-- --keep-sources]
  --dry-run       list what would be copied; copy and remove nothing
  --keep-sources  copy, but keep the rows and files (a first pass while the app still runs)`;

const flags = process.argv.slice(2);
const unknown = flags.filter((flag) => flag !== "--dry-run" && flag !== "--keep-sources");
if (unknown.length > 0) {
  console.error(`Unknown option ${unknown.join(" ")}\n${USAGE}`);
  process.exit(2);
}
const dryRun = flags.includes("--dry-run");

await runTool(async ({ env, db }) => {
  if (!env.S3)
    throw new Error(`No bucket to move to: set S3_URL, or S3_BUCKET with S3_ENDPOINT and the keys.\n${USAGE}`);
  const bucket = createS3Storage(env.S3);
  try {
    await bucket.verify();
    const summary = await moveStoredFiles({
      db,
      bucket,
      legacyDir: path.join(env.DATA_DIR, "uploads"),
      dryRun,
      keepSources: flags.includes("--keep-sources"),
      onFile: (key, outcome) => console.log(`${outcome.padEnd(13)} ${key}`),
    });
    const megabytes = (summary.bytes / 1024 / 1024).toFixed(1);
    console.log(
      dryRun
        ? `Would copy ${summary.toCopy} files (${megabytes} MB) to bucket ${env.S3.bucket}; ${summary.alreadyThere} already there.`
        : `Copied ${summary.copied} files (${megabytes} MB) to bucket ${env.S3.bucket}; ${summary.alreadyThere} were already there; removed ${summary.removed} from PostgreSQL and DATA_DIR/uploads.`,
    );
  } finally {
    bucket.close();
  }
});
