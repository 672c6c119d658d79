/**
 * A read one module lends another, to run as a subquery of the borrower's own statement: a request
 * that needs a learner's settings, progress and review then makes one round trip to PostgreSQL
 * instead of three, while each table's SQL stays in the module that owns it
 * (docs/decisions/049-lent-reads.md).
 *
 * `sql` is a scalar subquery, in parentheses, over the lender's tables only; its one parameter is
 * the user's id as `$1`, and it yields one JSON value (null when the account is gone). `read` turns
 * that value into what the lender's service would have answered.
 */
export interface LentRead<T> {
  readonly sql: string;
  read(json: unknown): T;
}
