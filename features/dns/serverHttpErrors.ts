import { HttpError } from '../../server/http/errors';
import { ProviderError } from '../../server/http/providerFetch';

/** A provider's refusal as the API answers it: the user can act on the message. */
function providerHttpError(error: unknown): unknown {
  if (!(error instanceof ProviderError)) return error;
  switch (error.kind) {
    case 'auth':
      return new HttpError(
        502,
        `${error.message}. Replace the credential on the 3rd-party integrations page.`,
      );
    case 'not_found':
      return new HttpError(404, error.message);
    case 'invalid':
      return new HttpError(400, error.message);
    case 'conflict':
      return new HttpError(409, error.message);
    case 'unreachable':
      return new HttpError(502, error.message);
  }
}

export async function atProvider<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw providerHttpError(error);
  }
}
