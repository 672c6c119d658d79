export const TASK_STATUSES = ["not-started", "in-progress", "completed"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
