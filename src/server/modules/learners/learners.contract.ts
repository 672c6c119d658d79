/**
 * The learner-as-staff-see-them API's contract, under /api/users/:userId beside the users module's
 * accounts and roles:
 *
 * GET    /api/users/:userId/progress                             → ProgressView (progress.contract)
 * PUT    /api/users/:userId/progress/:chapterId/:dayId/:taskId   staffProgressUpdateSchema → ProgressView
 * DELETE /api/users/:userId/progress                             → ProgressResetResponse
 * GET    /api/users/:userId/review                               → StruggleReport (review.contract)
 * POST   /api/users/:userId/review/pins                          pinRequestSchema → PinResponse
 *
 * A Tutor acts on Students only, an Admin on anyone (mayActOn, checked by the progress and review
 * services); any other role gets 403 before anything is read.
 */

/** What resetting a learner's progress answers: how many task records went. */
export interface ProgressResetResponse {
  deleted: number;
}
