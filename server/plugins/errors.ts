import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../http/errors';

/** A validation issue as fastify-type-provider-zod reports it (a zod issue, reshaped). */
interface Issue {
  keyword?: string;
  instancePath?: string;
  message?: string;
}

/** A field left out reads "Required", not zod's "expected string, received undefined". */
function messageOf(issue: Issue): string {
  if (issue.keyword === 'invalid_type' && issue.message?.endsWith('received undefined')) {
    return 'Required';
  }
  return issue.message ?? 'Invalid value';
}

/** Field path -> first message, the shape react-admin shows next to each input. */
export function fieldErrors(issues: readonly Issue[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = (issue.instancePath ?? '').split('/').filter(Boolean).join('.') || 'root';
    errors[field] ??= messageOf(issue);
  }
  return errors;
}

/**
 * One error shape for every failure: `{statusCode, error, message, errors?}`. Validation names
 * the fields; unexpected errors are logged and answered without detail.
 */
export default fp(async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      if (error.validationContext === 'params') {
        return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'Not found' });
      }
      const errors = fieldErrors(error.validation as Issue[]);
      const message = `Invalid ${Object.keys(errors).join(', ')}`;
      return reply.code(400).send({ statusCode: 400, error: 'Bad Request', message, errors });
    }
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send({
        statusCode: error.statusCode,
        error: error.statusCode >= 500 ? 'Internal Server Error' : httpReason(error.statusCode),
        message: error.message,
        ...(error.errors ? { errors: error.errors } : {}),
        ...error.details,
      });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      req.log.error({ err: error }, 'request failed');
      return reply.code(500).send({
        statusCode: 500,
        error: 'Internal Server Error',
        message: 'Internal Server Error',
      });
    }
    // Fastify's own client errors: 413 body too large, 415, malformed JSON, 429 from the limiter.
    return reply
      .code(status)
      .send({ statusCode: status, error: httpReason(status), message: error.message });
  });
});

function httpReason(status: number): string {
  return (
    {
      400: 'Bad Request',
      401: 'Unauthorized',
      403: 'Forbidden',
      404: 'Not Found',
      409: 'Conflict',
      413: 'Payload Too Large',
      415: 'Unsupported Media Type',
      429: 'Too Many Requests',
    }[status] ?? 'Error'
  );
}
