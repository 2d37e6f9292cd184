/** An error with the status and message the client should see; `errors` maps fields to messages. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string>,
    /** Extra fields of the error body a client acts on (e.g. the uuid to confirm). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const notFound = (what = 'Not found') => new HttpError(404, what);
export const forbidden = (why = 'Forbidden') => new HttpError(403, why);
export const unauthorized = (why = 'Authentication required') => new HttpError(401, why);
export const badRequest = (message: string, errors?: Record<string, string>) =>
  new HttpError(400, message, errors);
export const fieldError = (field: string, message: string) =>
  new HttpError(400, message, { [field]: message });
