import { z } from 'zod';

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

/**
 * The body of every error answer, as server/plugins/errors.ts writes it. Some answers add fields
 * a client acts on (the uuid of a sign-in to confirm), so others may follow.
 */
export const errorBody = z
  .looseObject({
    statusCode: z.number().int().describe('The HTTP status again'),
    error: z.string().describe('Its reason phrase: Bad Request, Not Found...'),
    message: z.string().describe('What went wrong, for a person'),
    errors: z
      .record(z.string(), z.string())
      .optional()
      .describe('Field path -> message, for each field that failed validation'),
  })
  .describe('An error');

/** The client errors a route's guard and validation can answer, documented once each. */
export const CLIENT_ERRORS = {
  400: { name: 'BadRequest', description: 'The query or body failed validation' },
  401: { name: 'Unauthorized', description: 'No valid token or API key was sent' },
  403: { name: 'Forbidden', description: 'The caller may not do this' },
  404: { name: 'NotFound', description: 'An id of the path names nothing the caller may reach' },
  429: {
    name: 'TooManyRequests',
    description: 'Too many calls from this client or for this account',
  },
} as const;

export type ClientError = keyof typeof CLIENT_ERRORS;
